/**
 * Reading one session back as a markdown digest: the code it changed under
 * the header, ahead of the conversation, so a digest cut to its budget loses
 * the end of the talk rather than the fix. Every cut says so where it
 * happens and names `deja show <id>`, which prints every stored turn.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { formatAge } from "../core/time.ts";
import {
  readSessionRecords,
  resolveSession,
  type SessionInfo,
  sessionInfoOf,
  type StoredRecord,
} from "../search/mod.ts";
import { collapse } from "./_db.ts";
import { writtenSide } from "./_changes.ts";
import { byteLength, cutBytes } from "./frame.ts";
import { errorLine } from "./fix.ts";

/** Options for {@linkcode contextDigest}. */
export interface ContextOptions {
  /** Byte budget of the digest (default 6144). */
  budget?: number;
  /** Characters kept of one turn before it is cut (default 700). */
  turnChars?: number;
  /** The clock, epoch ms. */
  now: number;
}

/** One change a session made to a file. */
export interface Change {
  /** The file. */
  path: string;
  /** The tool that made it. */
  tool?: string;
  /** The text it replaced, when the edit replaced text. */
  replaced?: string;
  /** The text it wrote, read back from the transcript when possible. */
  written?: string;
  /** The file was created or rewritten whole (no replaced text). */
  created?: boolean;
}

/** A session read back. */
export interface ContextDigest {
  /** The session. */
  session: SessionInfo;
  /** The markdown digest. */
  markdown: string;
  /** Changes found (all, whether or not they fit). */
  changes: Change[];
  /** Turns of conversation the session holds. */
  turns: number;
  /** Turns the digest shows. */
  shownTurns: number;
}

const EDIT_TOOLS =
  /^(edit|multiedit|write|apply_patch|write_file|replace|str_replace|create_file|edit_file|patch|notebookedit)$/i;

/**
 * The changes a session made, in order: each edit record with the text it
 * replaced and (read from the transcript) the text it wrote, plus files
 * written whole.
 *
 * @param records The session's records.
 * @param sourcePath The session's transcript.
 * @returns The changes.
 */
export async function sessionChanges(
  records: readonly StoredRecord[],
  sourcePath: string,
): Promise<Change[]> {
  const out: Change[] = [];
  const replacedPaths = new Set<string>();
  for (const r of records) {
    if (r.role !== "edit") continue;
    const [head, ...rest] = r.text.split("\n");
    const path = (head ?? "").trim();
    if (!path) continue;
    replacedPaths.add(path);
    const replaced = rest.join("\n");
    const change: Change = { path, replaced };
    if (r.tool) change.tool = r.tool;
    if (r.offset !== null && replaced.trim()) {
      const written = await writtenSide({
        path: sourcePath,
        offset: r.offset,
        removed: replaced,
      });
      if (written !== undefined) change.written = written;
    }
    out.push(change);
  }
  for (const r of records) {
    if (r.role !== "files" || !EDIT_TOOLS.test(r.tool ?? "")) continue;
    for (const line of r.text.split("\n")) {
      const path = line.trim();
      if (
        !path || replacedPaths.has(path) || out.some((c) => c.path === path)
      ) continue;
      const change: Change = { path, created: true };
      if (r.tool) change.tool = r.tool;
      out.push(change);
    }
  }
  return out;
}

function fence(text: string, max: number): string {
  const body = text.length > max
    ? `${text.slice(0, max)}\n… (${text.length - max} more characters)`
    : text;
  return body.replace(/```/g, "``\u200b`");
}

function changeBlock(c: Change, cwd: string | undefined): string {
  const shown = cwd && c.path.startsWith(`${cwd}/`)
    ? c.path.slice(cwd.length + 1)
    : c.path;
  const via = c.tool ? ` (${c.tool})` : "";
  if (c.created && c.replaced === undefined) {
    return `- \`${shown}\`${via}: written whole`;
  }
  const lines = [`- \`${shown}\`${via}:`];
  if (c.replaced !== undefined && c.replaced.trim()) {
    lines.push("  replaced:", "  ```", indent(fence(c.replaced, 400)), "  ```");
  }
  if (c.written !== undefined) {
    lines.push("  with:", "  ```", indent(fence(c.written, 400)), "  ```");
  } else if (c.replaced !== undefined) {
    lines.push(
      "  (the written side is not stored; deja show prints the session)",
    );
  }
  return lines.join("\n");
}

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}

/**
 * Reads one session back as a markdown digest within a byte budget.
 *
 * @param db The index.
 * @param ref Session id, unique prefix, or `harness:prefix`.
 * @param options Budget, turn cap, clock.
 * @returns The digest.
 * @throws {DejaError} QRY-E002 / QRY-E003 when the reference matches none or several.
 */
export async function contextDigest(
  db: Database,
  ref: string,
  options: ContextOptions,
): Promise<ContextDigest> {
  const row = resolveSession(db, ref);
  const session = sessionInfoOf(row);
  const records = await readSessionRecords(db, row.rowid);
  const marks = db.prepare(
    "SELECT from_seq, to_seq FROM marks WHERE session = ?",
  ).all(row.rowid) as Array<
    { from_seq: number; to_seq: number }
  >;
  const budget = options.budget ?? 6144;
  const turnChars = options.turnChars ?? 700;
  const show = `deja show ${session.harness}:${session.id}`;
  const updated = session.updated ? Date.parse(session.updated) : undefined;
  const header = [
    `# ${session.title || "(untitled)"}`,
    `${session.harness} · ${session.project || "-"} · ${session.id}${
      updated
        ? ` · ${session.updated?.slice(0, 10)} (${
          formatAge(updated, options.now)
        })`
        : ""
    }${session.cwd ? ` · ${session.cwd}` : ""}`,
    ...(session.parent
      ? [`${session.lineage ?? "child"} of ${session.parent}`]
      : []),
  ].join("\n");
  const changes = await sessionChanges(records, session.path);
  const parts: string[] = [header];
  let used = byteLength(header);
  const reserve = 220;
  if (changes.length) {
    const lines = ["", "## Changed code"];
    let shownChanges = 0;
    for (const c of changes) {
      const block = changeBlock(c, session.cwd);
      if (
        used + byteLength(lines.join("\n")) + byteLength(block) + reserve >
          budget * 0.6 && shownChanges > 0
      ) break;
      lines.push(block);
      shownChanges++;
    }
    if (shownChanges < changes.length) {
      lines.push(
        `(${changes.length - shownChanges} more change${
          changes.length - shownChanges === 1 ? "" : "s"
        } did not fit — ${show})`,
      );
    }
    const text = lines.join("\n");
    parts.push(text);
    used += byteLength(text);
  }
  const turns = records.filter((r) =>
    r.role === "user" || r.role === "assistant"
  );
  const convo = ["", "## Conversation"];
  used += byteLength(convo.join("\n"));
  let shownTurns = 0;
  let stopped = false;
  for (const r of records) {
    const line = conversationLine(r, turnChars, show, marks);
    if (!line) continue;
    const size = byteLength(line) + 1;
    if (used + size + reserve > budget) {
      stopped = true;
      break;
    }
    convo.push(line);
    used += size;
    if (r.role === "user" || r.role === "assistant") shownTurns++;
  }
  const last = turns.at(-1);
  if (stopped || shownTurns < turns.length) {
    const lastShown = !stopped ||
      (last !== undefined &&
        convo.some((l) => l.includes(collapse(last.text).slice(0, 40))));
    convo.push(
      `[Showed ${shownTurns} of ${turns.length} turns; the last turn is ${
        lastShown ? "" : "not "
      }among them — ${show} prints every stored turn]`,
    );
  }
  parts.push(convo.join("\n"));
  const markdown = cutBytes(parts.join("\n"), budget);
  return { session, markdown, changes, turns: turns.length, shownTurns };
}

function conversationLine(
  r: StoredRecord,
  turnChars: number,
  show: string,
  marks: ReadonlyArray<{ from_seq: number; to_seq: number }>,
): string | undefined {
  const superseded = marks.some((m) => r.seq >= m.from_seq && r.seq < m.to_seq);
  const flags = [superseded ? "superseded" : "", r.subagent ? "sub-agent" : ""]
    .filter(Boolean);
  const tag = flags.length ? ` [${flags.join(", ")}]` : "";
  if (r.role === "user" || r.role === "assistant" || r.role === "summary") {
    const text = r.text.trim();
    if (!text) return undefined;
    const cut = text.length > turnChars
      ? `${text.slice(0, turnChars)}… [cut: ${
        text.length - turnChars
      } more characters of this turn — ${show}]`
      : text;
    return `**${r.role}**${tag}: ${cut}`;
  }
  if (r.role === "command") {
    const exit = r.exitCode !== null ? ` → exit ${r.exitCode}` : "";
    return `\`$ ${collapse(r.text).slice(0, 200)}\`${exit}${tag}`;
  }
  if (r.role === "tool-output" && r.isError) {
    const line = errorLine(r.text);
    return line ? `  ↳ ${line.slice(0, 200)}` : undefined;
  }
  return undefined;
}
