/**
 * Credentials inside URLs: the password of `scheme://user:pass@host`, a
 * key standing as the user (`https://<32 hex>@…sentry.io`), signatures in
 * the query (`sig=`, `X-Amz-Signature=`), the secret path of Slack,
 * Discord, Microsoft Teams, Zapier, Make and n8n webhook URLs and of
 * Infura, Alchemy and QuickNode endpoints, and the password of an Oracle
 * thin JDBC URL (`jdbc:oracle:thin:user/pass@//host`, no `://` in it).
 *
 * @module
 */
import { cueSet, hasAnyCue, hasCue, RARE_URL_CUES } from "./_cues.ts";
import {
  charClasses,
  type Edits,
  isHexLike,
  isIdentifierLike,
  isPlaceholder,
  isRedacted,
  isReference,
} from "./_scan.ts";

const AUTHORITY_END = /[\s\/?#"'<>`\\]/g;
const URL_END = /[\s"'<>`\\]/;
/** Query parameters that carry a signature or key (Azure SAS, S3, GCS). */
const SIGNATURE_PARAM =
  /[?&](?:sig|signature|x-amz-signature|x-goog-signature)=([^&#\s"'<>`\\]{8,})/gi;
const SLACK_PATH =
  /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_\/-]{8,})/y;
const TEAMS_PATH =
  /(?:[\w-]+\.webhook\.office\.com\/webhookb2|outlook\.office(?:365)?\.com\/webhook)\/([A-Za-z0-9@\/_-]{40,})/y;
/** Web3 RPC endpoints whose path holds the project's key (Infura, Alchemy). */
const RPC_KEY_PATH =
  /(?:[\w-]+\.)*(?:infura\.io\/v3|alchemy(?:api)?\.(?:com|io)\/v2)\/([0-9a-f]{32}|[A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/y;
const DISCORD_PATH =
  /(?:[a-z]+\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/(\d+\/[A-Za-z0-9_-]{8,})/y;
/** Zapier catch hooks (hooks.zapier.com/hooks/catch/<id>/<key>/). */
const ZAPIER_PATH =
  /hooks\.zapier\.com\/hooks\/(?:catch|standard)\/(\d+\/[A-Za-z0-9]{4,})/y;
/** Make (Integromat) webhooks: hook.<region>.make.com/<32 characters>. */
const MAKE_PATH =
  /hook\.(?:[a-z0-9]+\.)?(?:make|integromat)\.com\/([a-z0-9]{32})(?![A-Za-z0-9_-])/y;
/** QuickNode endpoints: <name>.quiknode.pro/<token>/. */
const QUICKNODE_PATH =
  /(?:[\w-]+\.)+quiknode\.pro\/([0-9a-f]{32,64})(?![A-Za-z0-9_-])/y;
/** Healthchecks.io ping URLs: hc-ping.com/<uuid>, or /<ping key>/<slug>. */
const HEALTHCHECKS_PATH =
  /hc-ping\.com\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{22}(?=\/))(?![A-Za-z0-9_-])/y;
/** IFTTT Maker webhooks: maker.ifttt.com/trigger/<event>/with/key/<key>, /use/<key>. */
const IFTTT_PATH =
  /maker\.ifttt\.com\/(?:trigger\/[\w.-]+\/(?:json\/)?with\/key|use)\/([A-Za-z0-9_-]{16,})/y;
/**
 * A path segment an invitation, password-reset or magic link carries its
 * token in (group 1: the token, read by {@linkcode linkToken}).
 */
const LINK_TOKEN_PATH =
  /\/(?:invites?|invitations?|accept-invite|join-team|reset-password|password-reset|password\/reset|magic-link|magic)\/([A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])/g;
/**
 * Whether a link's path segment is a token: random, not a name made of
 * words or a hex id (`/invitations/<uuid>` is a REST resource).
 */
function linkToken(value: string): boolean {
  return charClasses(value) >= 2 && !isIdentifierLike(value) &&
    !isHexLike(value) && !isRedacted(value);
}
/** An n8n webhook's path (…/webhook/<uuid>, …/webhook-test/<uuid>). */
const N8N_PATH =
  /[\w.:-]+(?:\/[\w.-]+){0,3}?\/webhook(?:-test)?\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![A-Za-z0-9_-])/y;
/** How far before a URL its line may name n8n (`N8N_WEBHOOK_URL=`). */
const N8N_CUE_WINDOW = 64;

/**
 * Whether the URL whose host starts at `host` is an n8n one: its host
 * names n8n (acme.app.n8n.cloud, n8n.acme.io), or its line does before
 * it (N8N_WEBHOOK_URL=). Elsewhere `/webhook/<uuid>` is only an id.
 */
function isN8n(text: string, host: number, stop: number): boolean {
  if (text.slice(host, stop).toLowerCase().includes("n8n")) return true;
  const before = text.slice(Math.max(0, host - N8N_CUE_WINDOW), host);
  return before.slice(before.lastIndexOf("\n") + 1).toLowerCase()
    .includes("n8n");
}

/** Adds the secret path of a webhook URL whose host starts at `host`. */
function webhookPath(
  text: string,
  host: number,
  path: RegExp,
  id: string,
  edits: Edits,
): void {
  path.lastIndex = host;
  const m = path.exec(text);
  if (!m || isRedacted(m[1]!)) return;
  const end = host + m[0].length;
  edits.push({ start: end - m[1]!.length, end, id });
}

/** A user part that is a key: 32+ hex digits, or a long random token. */
function keyAsUser(user: string): boolean {
  if (isRedacted(user) || isReference(user)) return false;
  // 32+ hex digits, or an Azure DevOps PAT (52 characters of base32).
  if (/^[0-9a-f]{32,}$/i.test(user) || /^[a-z2-7]{52}$/.test(user)) {
    return true;
  }
  return user.length >= 24 && /^[A-Za-z0-9_-]+$/.test(user) &&
    charClasses(user) === 3 && !isIdentifierLike(user);
}

/** Adds an edit for each signature in the query of the URL in [from, to). */
function signatures(text: string, from: number, to: number, edits: Edits) {
  const query = text.slice(from, to);
  if (!query.includes("=")) return;
  if (/appid=/i.test(query)) {
    APPID_KEY.lastIndex = 0;
    let k: RegExpExecArray | null;
    while ((k = APPID_KEY.exec(query)) !== null) {
      const end = from + k.index + k[0].length;
      edits.push({ start: end - 32, end, id: "url-credentials" });
    }
  }
  SIGNATURE_PARAM.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SIGNATURE_PARAM.exec(query)) !== null) {
    const value = m[1]!;
    if (isRedacted(value) || isPlaceholder(value)) continue;
    const end = from + m.index + m[0].length;
    edits.push({ start: end - value.length, end, id: "url-credentials" });
  }
}

/**
 * Where the URL that reaches `from` ends (at a blank, quote or bracket), or
 * `from + max` when that comes first: only that much is read, so a long
 * text of URLs with no blank is not read to its end at each one.
 */
function urlEndWithin(text: string, from: number, max: number): number {
  const end = URL_END.exec(text.slice(from, from + max))?.index;
  return end === undefined ? Math.min(text.length, from + max) : from + end;
}

/** What may follow a URL's `@`: a host name or address, a port, then the path. */
const HOST_AFTER =
  /[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?(?=[\/?#\s"'<>`\\,;)\]]|$)/y;

/**
 * Where the user info of a URL ends when its password holds a `#`, `/` or
 * `?` that cut the authority short at `stop` (`postgres://app:Q#x@db`):
 * the last `@` before the next blank (within 256 characters) that a host
 * follows. After a port (`host:8080/…/@alice`, `host:3000?to=a@b.io`)
 * nothing changes: `stop` is returned.
 */
function userinfoEnd(text: string, host: number, stop: number): number {
  const c = text[stop];
  if (c !== "#" && c !== "/" && c !== "?") return stop;
  const colon = text.indexOf(":", host);
  if (/^\d+$/.test(text.slice(colon + 1, stop))) return stop;
  if (!/^[\w.%+@-]*$/.test(text.slice(host, colon))) return stop;
  const end = urlEndWithin(text, stop, 256);
  const at = stop + 1 + text.slice(stop + 1, end).lastIndexOf("@");
  if (at <= stop) return stop;
  HOST_AFTER.lastIndex = at + 1;
  return HOST_AFTER.test(text) ? at + 1 : stop;
}

/**
 * Where the next scheme separator at or after `from` is: `://`, or `:\/\/`
 * as JSON written by PHP's json_encode or Java escapes the slashes
 * (`"postgres:\/\/app:pw@db\/app"`); -1 when none. `next` caches each
 * form's next place (one search per form over the text, not per URL).
 */
function nextScheme(
  text: string,
  from: number,
  next: { plain: number; escaped: number },
): number {
  if (next.plain !== -1 && next.plain < from) {
    next.plain = text.indexOf("://", from);
  }
  if (next.escaped !== -1 && next.escaped < from) {
    next.escaped = text.indexOf(":\\/\\/", from);
  }
  if (next.plain < 0) return next.escaped;
  if (next.escaped < 0) return next.plain;
  return Math.min(next.plain, next.escaped);
}

/**
 * An Oracle thin JDBC URL's user and password: `jdbc:oracle:thin:` then
 * `user/password@` before the host (`@//host:1521/service`, `@host:1521:SID`).
 */
const ORACLE_THIN = /jdbc:oracle:thin:([^\s/@:"'`]+)\/([^\s@"'`]+)@/gi;

/** Adds an edit for the password of every Oracle thin JDBC URL. */
function oracleThin(text: string, edits: Edits): void {
  ORACLE_THIN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ORACLE_THIN.exec(text)) !== null) {
    const password = m[2]!;
    if (isRedacted(password) || isReference(password)) continue;
    if (isPlaceholder(password)) continue;
    const start = m.index + m[0].length - 1 - password.length;
    edits.push({ start, end: start + password.length, id: "url-credentials" });
  }
}

/** The network part of a Go MySQL DSN (`user:pass@tcp(host:3306)/db`). */
const GO_DSN_NET = /@(?:tcp6?|unix)\(/g;
/** What ends the DSN before its user: a blank, a quote. */
const DSN_START = new Uint8Array(128);
for (const ch of " \t\r\n\"'`") DSN_START[ch.charCodeAt(0)] = 1;

/**
 * Adds an edit for the password of each Go MySQL DSN (go-sql-driver's
 * `user:pass@tcp(host:port)/db`, `…@unix(/path)/db`): after the user's
 * first `:`, up to the `@` before the network; the DSN starts after a
 * blank or quote (and after an `=` in the user, `DSN=user:pass@tcp(…)`).
 */
function goDsns(text: string, edits: Edits): void {
  GO_DSN_NET.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = GO_DSN_NET.exec(text)) !== null) {
    const at = m.index;
    let start = at;
    while (start > 0 && at - start < 256) {
      const c = text.charCodeAt(start - 1);
      if (c < 128 && DSN_START[c] === 1) break;
      start--;
    }
    const userinfo = text.slice(start, at);
    // A URL's user info is the URL rule's (`mysql://u:p@tcp(…)`).
    if (userinfo.includes("://")) continue;
    const colon = userinfo.indexOf(":");
    if (colon < 0) continue;
    const password = userinfo.slice(colon + 1);
    if (password.length === 0 || isRedacted(password)) continue;
    if (isReference(password) || isPlaceholder(password)) continue;
    // A format string (`%s:%s@tcp(%s)/%s`) or a template's field.
    if (/^%[a-z]$|^\{\{|^\{[\w.]*\}$/.test(password)) continue;
    edits.push({ start: start + colon + 1, end: at, id: "url-credentials" });
  }
}

/**
 * OpenWeather's API key in a query (`&appid=<32 hex>`). Other services'
 * `appid` is a public app id (Steam's number, WeChat's `wx…`, Azure's
 * UUID), never 32 bare hex digits.
 */
const APPID_KEY = /[?&]appid=([0-9a-f]{32})(?![0-9A-Za-z_-])/gi;

/** Adds an edit for the token of each invitation, reset or magic link in the path [from, to). */
function linkTokens(text: string, from: number, to: number, edits: Edits) {
  const path = text.slice(from, to);
  LINK_TOKEN_PATH.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LINK_TOKEN_PATH.exec(path)) !== null) {
    if (!linkToken(m[1]!)) continue;
    const end = from + m.index + m[0].length;
    edits.push({ start: end - m[1]!.length, end, id: "url-credentials" });
  }
}

/**
 * A signature, or a key of 32+ hex digits, in a query with or without a
 * scheme before it (an access log's request line `GET /f.pdf?…&signature=…`,
 * `curl "…?q=x&key=<hex>"`): group 1 a signature, group 2 a hex key.
 */
const QUERY_SECRET =
  /[?&](?:(?:sig|signature|x-amz-signature|x-goog-signature)=([^&#\s"'<>`\\]{8,})|(?:key|api[_-]?key)=([0-9a-fA-F]{32,})(?![\w-]))/gi;

/** Adds an edit for every signature and hex key of {@linkcode QUERY_SECRET}. */
function pathQueries(text: string, edits: Edits): void {
  QUERY_SECRET.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = QUERY_SECRET.exec(text)) !== null) {
    const value = m[1] ?? m[2]!;
    if (isRedacted(value) || isPlaceholder(value) || isReference(value)) {
      continue;
    }
    const end = m.index + m[0].length;
    edits.push({ start: end - value.length, end, id: "url-credentials" });
  }
}

/** A session id carried in a URL: `;jsessionid=…`, `?PHPSESSID=…`, `&sessionid=…`. */
const URL_SESSION_ID =
  /[;?&](?:jsessionid|phpsessid|sessionid)=([A-Za-z0-9._-]{16,})/gi;

/** Adds an edit for every session id of {@linkcode URL_SESSION_ID}. */
function sessionIds(text: string, edits: Edits): void {
  URL_SESSION_ID.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = URL_SESSION_ID.exec(text)) !== null) {
    const value = m[1]!;
    if (isRedacted(value) || isPlaceholder(value)) continue;
    const end = m.index + m[0].length;
    edits.push({ start: end - value.length, end, id: "url-credentials" });
  }
}

/** One look for a query's signature, a session id or a link's token. */
const RARE_URL_SET = cueSet(RARE_URL_CUES);

/** Adds an edit for every URL password and webhook secret. */
export function collectUrls(text: string, edits: Edits): void {
  if (hasCue(text, "thin:") || hasCue(text, "THIN:")) oracleThin(text, edits);
  if (hasCue(text, "@tcp") || hasCue(text, "@unix(")) goDsns(text, edits);
  const cached = {
    plain: hasCue(text, "://") ? text.indexOf("://") : -1,
    escaped: hasCue(text, ":\\/\\/") ? text.indexOf(":\\/\\/") : -1,
  };
  const rare = hasAnyCue(text, RARE_URL_SET);
  if (
    rare && (hasCue(text, "ignature=") || hasCue(text, "sig=") ||
      hasCue(text, "key="))
  ) {
    pathQueries(text, edits);
  }
  if (
    rare && (hasCue(text, "sessionid=") || hasCue(text, "SESSIONID=") ||
      hasCue(text, "SESSID="))
  ) {
    sessionIds(text, edits);
  }
  // Invitation and reset links are looked for only in a text naming one.
  const links = rare &&
    (hasCue(text, "/invit") || hasCue(text, "/join-team/") ||
      hasCue(text, "reset") || hasCue(text, "/magic"));
  // n8n webhook paths are looked for only in a text that names n8n.
  const n8n = hasCue(text, "/webhook") && /n8n/i.test(text);
  let at = nextScheme(text, 0, cached);
  while (at >= 0) {
    const host = at + (text[at + 1] === "\\" ? 5 : 3);
    AUTHORITY_END.lastIndex = host;
    const stop = AUTHORITY_END.exec(text)?.index ?? text.length;
    let authority = text.slice(host, stop);
    // A password holding #, / or ? cuts the authority short; one holding @
    // as well (`u:b@K#x@host`, `u:@Q#x@host`) too when a `#` cut it (no
    // fragment comes before a host) or nothing stands between : and @.
    // A user may hold an @ of its own (postmaster@mg.example.org:…).
    const colon0 = authority.indexOf(":");
    const at0 = authority.indexOf("@", colon0 + 1);
    if (
      colon0 >= 0 &&
      (at0 < 0 || text[stop] === "#" || at0 === colon0 + 1)
    ) {
      authority = text.slice(host, userinfoEnd(text, host, stop));
    }
    const lastAt = authority.lastIndexOf("@");
    // A key standing as the user, already replaced, holds the marker's `:`.
    const colon = lastAt < 0 || isRedacted(authority.slice(0, lastAt))
      ? -1
      : authority.indexOf(":");
    if (colon >= 0 && colon < lastAt) {
      const password = authority.slice(colon + 1, lastAt);
      // JDBC SQL Server's `host:1433;user=sa;password=…@…`: parameters,
      // not user info (the credential rule reads `password=`).
      if (
        password.length > 0 && !isRedacted(password) &&
        !/;[A-Za-z]\w*=/.test(password) &&
        !isReference(password) && !isPlaceholder(password)
      ) {
        edits.push({
          start: host + colon + 1,
          end: host + lastAt,
          id: "url-credentials",
        });
      }
    }
    if (lastAt > 0 && colon < 0 && keyAsUser(authority.slice(0, lastAt))) {
      edits.push({ start: host, end: host + lastAt, id: "url-credentials" });
    }
    webhookPath(text, host, SLACK_PATH, "slack-webhook", edits);
    webhookPath(text, host, DISCORD_PATH, "discord-webhook", edits);
    webhookPath(text, host, TEAMS_PATH, "teams-webhook", edits);
    webhookPath(text, host, RPC_KEY_PATH, "url-credentials", edits);
    webhookPath(text, host, QUICKNODE_PATH, "url-credentials", edits);
    webhookPath(text, host, ZAPIER_PATH, "url-credentials", edits);
    webhookPath(text, host, MAKE_PATH, "url-credentials", edits);
    webhookPath(text, host, HEALTHCHECKS_PATH, "url-credentials", edits);
    webhookPath(text, host, IFTTT_PATH, "url-credentials", edits);
    if (links && text[stop] === "/") {
      linkTokens(text, stop, urlEndWithin(text, stop, 2048), edits);
    }
    if (n8n && text[stop] === "/" && isN8n(text, host, stop)) {
      webhookPath(text, host, N8N_PATH, "url-credentials", edits);
    }
    const next = nextScheme(text, stop, cached);
    if (text[stop] === "?" || text[stop] === "/") {
      // A query is read up to the next URL, whose own query that one reads:
      // URLs run together with no blank (`https://x/?sig=…https://x/?…`)
      // are not each read for 8 KiB.
      const end = urlEndWithin(text, stop, 8192);
      signatures(text, stop, next < 0 ? end : Math.min(end, next), edits);
    }
    at = next;
  }
}
