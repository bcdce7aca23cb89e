/**
 * The point-of-failure remedy: when a command fails, the pair already on
 * file — the same error seen before and what followed it without failing —
 * in two lines at most, never an irreversible command.
 *
 * @module
 */
import { shortSessionId } from "../core/text.ts";
import type { Database } from "../core/_sqlite.ts";
import { sha256Hex } from "../core/hash.ts";
import { formatAge } from "../core/time.ts";
import { collapse } from "./_db.ts";
import { errorLine, fixFor } from "./fix.ts";
import { byteLength, cutBytes } from "./frame.ts";
import { isIrreversible } from "./irreversible.ts";

/** Byte cap of the remedy text. */
export const REMEDY_MAX_BYTES = 420;

/** Options for {@linkcode remedyFor}. */
export interface RemedyOptions {
  /** The command that failed. */
  command?: string;
  /** The asker's project (pairs from it or from no project only). */
  project?: string;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
  /** Error hashes already answered for this session. */
  answered?: Readonly<Record<string, number>>;
  /** The clock, epoch ms. */
  now: number;
}

/** A remedy, or silence. */
export interface Remedy {
  /** Hash of the error line (for per-session dedupe). */
  errorHash: string;
  /** At most two lines, or "" when silent. */
  text: string;
}

/**
 * Finds the remedy for a failed command's output.
 *
 * @param db The index.
 * @param output What the command printed (the error).
 * @param options Failed command, project, exclusions, dedupe, clock.
 * @returns The remedy ("" text when the store holds no pair).
 */
export async function remedyFor(
  db: Database,
  output: string,
  options: RemedyOptions,
): Promise<Remedy> {
  const line = errorLine(output);
  const errorHash = sha256Hex(collapse(line).toLowerCase()).slice(0, 16);
  const silent = { errorHash, text: "" };
  if (!line || options.answered?.[errorHash] !== undefined) return silent;
  const found = await fixFor(db, line, {
    ...(options.project ? { project: options.project } : {}),
    projectOnly: true,
    ...(options.exclude ? { exclude: options.exclude } : {}),
    limit: 3,
  });
  const pair = found.pairs.find((p) => p.remedy.length > 0 || p.verified);
  if (!pair) return silent;
  const steps = pair.remedy.filter((c) => !isIrreversible(c));
  if (steps.length === 0 && !pair.verified) return silent;
  const root = pair.session.cwd
    ? `${pair.session.cwd.replace(/\/$/, "")}/`
    : undefined;
  const edited = pair.edited.map((
    p,
  ) => (root && p.startsWith(root) ? p.slice(root.length) : p));
  const updated = pair.session.updated
    ? Date.parse(pair.session.updated)
    : undefined;
  const when = updated ? formatAge(updated, options.now) : "earlier";
  const first = `deja: this error was seen ${when} in ${
    pair.session.project || "a session"
  } (${pair.session.harness} ${shortSessionId(pair.session.id)}): ${
    collapse(pair.error).slice(0, 140)
  }`;
  const parts: string[] = [];
  if (steps.length) {
    parts.push(`ran ${steps.map((s) => `\`${s}\``).join(" then ")}`);
  }
  if (edited.length) parts.push(`edited ${edited.join(", ")}`);
  let second = `what followed without the error returning: ${
    parts.join(", ") || "nothing but a re-run"
  }`;
  if (pair.verified) second += `; then \`${pair.verified}\` passed`;
  if (pair.conclusion) second += ` — ${collapse(pair.conclusion)}`;
  second = cutBytes(
    second,
    REMEDY_MAX_BYTES - Math.min(200, byteLength(first)) - 1,
  );
  return {
    errorHash,
    text: cutBytes(`${cutBytes(first, 200)}\n${second}`, REMEDY_MAX_BYTES),
  };
}
