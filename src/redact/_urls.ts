/**
 * Credentials inside URLs: the password of `scheme://user:pass@host`, a
 * key standing as the user (`https://<32 hex>@…sentry.io`), signatures in
 * the query (`sig=`, `X-Amz-Signature=`), and the secret path of Slack and
 * Discord webhook URLs.
 *
 * @module
 */
import {
  charClasses,
  type Edits,
  isIdentifierLike,
  isPlaceholder,
  isRedacted,
  isReference,
} from "./_scan.ts";

const AUTHORITY_END = /[\s\/?#"'<>`\\]/g;
const URL_END = /[\s"'<>`\\]/g;
/** Query parameters that carry a signature or key (Azure SAS, S3, GCS). */
const SIGNATURE_PARAM =
  /[?&](?:sig|signature|x-amz-signature|x-goog-signature)=([^&#\s"'<>`\\]{8,})/gi;
const SLACK_PATH =
  /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_\/-]{8,})/y;
const DISCORD_PATH =
  /(?:[a-z]+\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/(\d+\/[A-Za-z0-9_-]{8,})/y;

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
  if (/^[0-9a-f]{32,}$/i.test(user)) return true;
  return user.length >= 24 && /^[A-Za-z0-9_-]+$/.test(user) &&
    charClasses(user) === 3 && !isIdentifierLike(user);
}

/** Adds an edit for each signature in the query of the URL in [from, to). */
function signatures(text: string, from: number, to: number, edits: Edits) {
  const query = text.slice(from, to);
  if (!query.includes("=")) return;
  SIGNATURE_PARAM.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SIGNATURE_PARAM.exec(query)) !== null) {
    const value = m[1]!;
    if (isRedacted(value) || isPlaceholder(value)) continue;
    const end = from + m.index + m[0].length;
    edits.push({ start: end - value.length, end, id: "url-credentials" });
  }
}

/** Adds an edit for every URL password and webhook secret. */
export function collectUrls(text: string, edits: Edits): void {
  let at = text.indexOf("://");
  while (at >= 0) {
    const host = at + 3;
    AUTHORITY_END.lastIndex = host;
    const stop = AUTHORITY_END.exec(text)?.index ?? text.length;
    const authority = text.slice(host, stop);
    const lastAt = authority.lastIndexOf("@");
    // A key standing as the user, already replaced, holds the marker's `:`.
    const colon = lastAt < 0 || isRedacted(authority.slice(0, lastAt))
      ? -1
      : authority.indexOf(":");
    if (colon >= 0 && colon < lastAt) {
      const password = authority.slice(colon + 1, lastAt);
      if (
        password.length > 0 && !isRedacted(password) &&
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
    if (text[stop] === "?" || text[stop] === "/") {
      URL_END.lastIndex = stop;
      const end = URL_END.exec(text)?.index ?? text.length;
      signatures(text, stop, Math.min(end, stop + 8192), edits);
    }
    at = text.indexOf("://", stop);
  }
}
