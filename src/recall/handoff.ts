/**
 * `deja handoff`: a packet another agent can pick the work up from — the
 * goal, the latest ask, what changed and ran, what was decided, what is
 * still open, and how to continue.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { formatAge } from "../core/time.ts";
import { ownValue } from "../core/lookup.ts";
import {
  readSessionRecords,
  resolveSession,
  type SessionInfo,
  sessionInfoOf,
  sessionRowid,
  type StoredRecord,
} from "../search/mod.ts";
import {
  clip,
  collapse,
  commandFailed,
  DECISION_LINE,
  decisionSentence,
  declinedOutput,
  normalizeCommand,
} from "./_db.ts";
import { sessionChanges } from "./context_digest.ts";
import { errorLine } from "./fix.ts";
import { AGENT_NAMES } from "./agent_names.ts";
import { lastSessions } from "./last_sessions.ts";
import { resumeCommand } from "./resume_command.ts";

/** Options for {@linkcode handoffPacket}. */
export interface HandoffOptions {
  /** The session to hand off (default: the project's most recent). */
  session?: string;
  /** The project whose latest session is handed off. */
  project?: string;
  /** The agent that picks it up (a harness id). */
  to?: string;
  /** The clock, epoch ms. */
  now: number;
}

/** A handoff packet. */
export interface HandoffPacket {
  /** The session handed off. */
  session: SessionInfo;
  /** The packet as markdown. */
  markdown: string;
}

function clipFlat(text: string, max: number): string {
  return clip(collapse(text), max);
}

/**
 * Builds the handoff packet for a session.
 *
 * @param db The index.
 * @param options Session or project, target agent, clock.
 * @returns The packet, or undefined when there is no session to hand off.
 */
export async function handoffPacket(
  db: Database,
  options: HandoffOptions,
): Promise<HandoffPacket | undefined> {
  let info: SessionInfo | undefined;
  let rowid: number;
  if (options.session) {
    const row = resolveSession(db, options.session);
    info = sessionInfoOf(row);
    rowid = row.rowid;
  } else {
    info = lastSessions(
      db,
      1,
      options.project ? { project: options.project } : {},
    )[0];
    const found = info && sessionRowid(db, info);
    if (!info || found === undefined) return undefined;
    rowid = found;
  }
  const records = await readSessionRecords(db, rowid);
  const users = records.filter((r) => r.role === "user" && r.text.trim());
  const from = ownValue(AGENT_NAMES, info.harness) ?? info.harness;
  const to = options.to
    ? ownValue(AGENT_NAMES, options.to) ?? options.to
    : undefined;
  const updated = info.updated ? Date.parse(info.updated) : undefined;
  const lines = [
    `# Handoff: ${info.title || "(untitled)"}`,
    `From ${from} session ${info.id}${
      info.project ? ` in ${info.project}` : ""
    }${updated ? `, last active ${formatAge(updated, options.now)}` : ""}${
      to ? `, for ${to}` : ""
    }.`,
  ];
  if (info.cwd) lines.push(`Working directory: ${info.cwd}`);
  lines.push("", "## Goal", clipFlat(users[0]?.text ?? info.title, 600));
  const latest = users.at(-1);
  if (latest && latest !== users[0]) {
    lines.push("", "## Latest ask", clipFlat(latest.text, 400));
  }
  const changes = await sessionChanges(records, info.path);
  const commands = records.filter((r) => r.role === "command");
  // A call the person refused never ran: its output says so.
  const declined = (c: StoredRecord) => {
    const out = records.find((r) =>
      r.seq > c.seq && r.seq <= c.seq + 3 && r.role === "tool-output"
    );
    return out !== undefined && declinedOutput(out.text);
  };
  if (changes.length || commands.length) {
    lines.push("", "## Done so far");
    const root = info.cwd ? `${info.cwd.replace(/\/$/, "")}/` : undefined;
    const files = [
      ...new Set(
        changes.map((c) =>
          root && c.path.startsWith(root) ? c.path.slice(root.length) : c.path
        ),
      ),
    ];
    if (files.length) {
      lines.push(
        `- Changed: ${files.slice(0, 12).map((f) => `\`${f}\``).join(", ")}${
          files.length > 12 ? ` and ${files.length - 12} more` : ""
        }`,
      );
    }
    for (const c of commands.slice(-8)) {
      const failed = commandFailed(db, { session: rowid, command: c });
      lines.push(
        `- Ran \`${clipFlat(normalizeCommand(c.text), 160)}\` → ${
          declined(c)
            ? "declined by the person"
            : failed
            ? `failed${c.exitCode ? ` (exit ${c.exitCode})` : ""}`
            : "ok"
        }`,
      );
    }
  }
  const decisions = records.filter((r) =>
    (r.role === "assistant" || r.role === "user") && DECISION_LINE.test(r.text)
  )
    .map((r) => decisionSentence(r.text, 220));
  const unique = [...new Set(decisions)].slice(-4);
  if (unique.length) {
    lines.push(
      "",
      "## Decisions",
      ...unique.map((d) => `- ${d}`),
    );
  }
  const open: string[] = [];
  const lastCmd = commands.at(-1);
  if (
    lastCmd && !declined(lastCmd) &&
    commandFailed(db, { session: rowid, command: lastCmd })
  ) {
    const out = records.find((r) =>
      r.seq > lastCmd.seq && r.role === "tool-output"
    );
    open.push(
      `The last command failed: \`${
        clipFlat(normalizeCommand(lastCmd.text), 160)
      }\`${out ? ` — ${clipFlat(errorLine(out.text), 200)}` : ""}`,
    );
  }
  const lastTurn = records.filter((r) =>
    r.role === "user" || r.role === "assistant"
  ).at(-1);
  if (lastTurn?.role === "user") {
    open.push(
      `The last request has no answer yet: ${clipFlat(lastTurn.text, 300)}`,
    );
  } else if (lastTurn && /\?\s*$/.test(lastTurn.text.trim())) {
    open.push(
      `The agent's last question is unanswered: ${
        clipFlat(lastTurn.text, 300)
      }`,
    );
  }
  if (open.length) lines.push("", "## Open", ...open.map((o) => `- ${o}`));
  lines.push("", "## Continue");
  const resume = resumeCommand(info);
  if (resume && (!options.to || options.to === info.harness)) {
    lines.push(`- Resume in ${from}: \`${resume.display}\``);
  }
  if (to && options.to !== info.harness) {
    lines.push(
      `- ${to}: start in ${
        info.cwd ?? "the project directory"
      } and work from this packet.`,
    );
  }
  lines.push(`- Every stored turn: \`deja show ${info.harness}:${info.id}\``);
  return { session: info, markdown: lines.join("\n") };
}
