/**
 * Commands deja never offers as a remedy: the ones that cannot be taken
 * back (history rewritten, data deleted, shared state changed) and anything
 * aimed at production.
 *
 * @module
 */

const RULES: readonly RegExp[] = [
  /\bgit\s+push\b[^|;&]*(\s--force\b|\s-f\b|\s--force-with-lease\b|\s\+\S)/,
  /\bgit\s+push\b[^|;&]*\s--(delete|mirror)\b/,
  /\bgit\s+reset\b[^|;&]*--hard\b/,
  /\bgit\s+clean\b/,
  /\bgit\s+branch\b[^|;&]*\s-(D|d|-delete)\b/,
  /\bgit\s+stash\s+(drop|clear)\b/,
  /\bgit\s+(merge|rebase|filter-branch|filter-repo|update-ref\s+-d)\b/,
  /\bgit\s+checkout\s+(--\s+)?\.(\s|$)/,
  /\bgit\s+restore\b[^|;&]*(\s\.(\s|$)|--staged\s+--worktree)/,
  /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\b/,
  /\b(rmdir|shred|mkfs(\.\w+)?|dd|truncate|wipefs)\b\s/,
  /\bdrop\s+(table|database|schema|index|user|role)\b/i,
  /\b(truncate\s+table|delete\s+from)\b/i,
  /\bkubectl\b/,
  /\bhelm\b/,
  /\bterraform\s+(apply|destroy|import|state\s+(rm|mv|push))\b/,
  /\b(tofu|terragrunt)\s+(apply|destroy)\b/,
  /\bdocker\s+(system|volume|image|container)\s+prune\b/,
  /\bdocker(-compose|\s+compose)\s+down\b[^|;&]*\s-v\b/,
  /\bdropdb\b/,
  /\bredis-cli\b[^|;&]*\bflush(all|db)\b/i,
  /\bchmod\s+-R\b/,
  /\bchown\s+-R\b/,
  /\b(npm|pnpm|yarn)\s+(publish|unpublish|deprecate)\b/,
  /\b(cargo|gem|twine|poetry)\s+(publish|yank|upload)\b/,
  /\bgh\s+(release|repo)\s+delete\b/,
  /\baws\s+\S+\s+(delete|remove|terminate)[-\w]*\b/,
  /\bgcloud\b[^|;&]*\bdelete\b/,
  /\bsudo\b/,
  /(^|[\s/=:_-])prod(uction)?([\s/=:_.-]|$)/i,
];

/**
 * Whether a command cannot be taken back: a force push, a hard reset, a
 * dropped stash, git clean, a merge or rebase, a recursive rm, a kubectl or
 * helm change, a database drop, a terraform apply, or anything naming prod.
 *
 * @param command A shell command line.
 * @returns True when deja must not offer it.
 * @example
 * ```ts
 * import { isIrreversible } from "./irreversible.ts";
 * import { equal } from "node:assert/strict";
 * equal(isIrreversible("git push --force origin main"), true);
 * equal(isIrreversible("docker compose up -d db"), false);
 * ```
 */
export function isIrreversible(command: string): boolean {
  const text = command.replace(/\s+/g, " ");
  return RULES.some((re) => re.test(text));
}
