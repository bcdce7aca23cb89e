/**
 * Credentials inside URLs: the password of `scheme://user:pass@host`, and
 * the secret path of Slack and Discord webhook URLs.
 *
 * @module
 */
import { type Edits, isPlaceholder, isRedacted, isReference } from "./_scan.ts";

const AUTHORITY_END = /[\s\/?#"'<>`\\]/g;
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

/** Adds an edit for every URL password and webhook secret. */
export function collectUrls(text: string, edits: Edits): void {
  let at = text.indexOf("://");
  while (at >= 0) {
    const host = at + 3;
    AUTHORITY_END.lastIndex = host;
    const stop = AUTHORITY_END.exec(text)?.index ?? text.length;
    const authority = text.slice(host, stop);
    const lastAt = authority.lastIndexOf("@");
    const colon = lastAt < 0 ? -1 : authority.indexOf(":");
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
    webhookPath(text, host, SLACK_PATH, "slack-webhook", edits);
    webhookPath(text, host, DISCORD_PATH, "discord-webhook", edits);
    at = text.indexOf("://", stop);
  }
}
