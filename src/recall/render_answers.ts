/**
 * Plain-text renderings of the work verbs' answers, shared by the CLI and
 * the MCP tool so both say the same thing the same way.
 *
 * @module
 */
import { formatAge } from "../core/time.ts";
import type { Note } from "../memory/mod.ts";
import type { SessionInfo } from "../search/mod.ts";
import type { BlameResult, LineAttribution } from "./blame.ts";
import type { FileUse } from "./files.ts";
import type { FixResult } from "./fix.ts";
import type { HowResult } from "./how.ts";
import type { Orientation } from "./orient.ts";
import { noteLine } from "./project_notes.ts";
import { resumeCommand } from "./resume_command.ts";
import { shortSessionId } from "../core/text.ts";

function ref(s: SessionInfo): string {
  return `${s.harness}:${shortSessionId(s.id)}`;
}

function age(iso: string | null, now: number): string {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? formatAge(t, now) : "undated";
}

/**
 * Renders a fix answer.
 *
 * @param result What {@linkcode fixFor} found.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderFix(result: FixResult, now: number): string {
  if (result.pairs.length === 0) {
    return `Nothing on file for this error. ${result.why ?? ""}`.trim();
  }
  const out: string[] = [];
  for (const p of result.pairs) {
    const where = `${p.session.project || "-"} · ${ref(p.session)} · ${
      age(p.session.updated, now)
    }`;
    out.push(`${p.sameProject ? "this project" : "elsewhere"} — ${where}`);
    out.push(`  error:   ${p.error}`);
    if (p.failed) out.push(`  failed:  ${p.failed}`);
    if (p.remedy.length) {
      out.push(
        `  then ran (and it did not come back): ${
          p.remedy.map((c) => `\`${c}\``).join(" → ")
        }`,
      );
    }
    if (p.edited.length) out.push(`  edited:  ${p.edited.join(", ")}`);
    if (p.verified) {
      out.push(`  passed:  \`${p.verified}\` ran clean afterwards`);
    }
    if (p.conclusion) out.push(`  concluded: ${p.conclusion}`);
  }
  return out.join("\n");
}

/**
 * Renders a how answer.
 *
 * @param result What {@linkcode howTo} found.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderHow(result: HowResult, now: number): string {
  if (result.invocations.length === 0) {
    return `No invocation on file. ${result.why ?? ""}`.trim();
  }
  const lead = result.fromTalk
    ? `No command names ${
      result.terms.map((t) => `"${t}"`).join(", ")
    }; these ran in the sessions that talked about it:\n`
    : "";
  return lead + result.invocations.map((inv, i) => {
    const when = inv.last !== undefined ? formatAge(inv.last, now) : "undated";
    const where = inv.projects.length ? ` in ${inv.projects.join(", ")}` : "";
    const more = inv.family > inv.sessions
      ? ` (${inv.family} counting runs with more arguments)`
      : "";
    return `${i + 1}. ${inv.command}\n   ${inv.sessions} session${
      inv.sessions === 1 ? "" : "s"
    }${more}${where}, ${inv.ok}/${inv.runs} runs ok, last ${when} (${inv.example})`;
  }).join("\n");
}

/**
 * Renders a blame answer.
 *
 * @param result What {@linkcode blame} found.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderBlame(result: BlameResult, now: number): string {
  if (result.entries.length === 0) {
    return `No session discussed ${result.file}. ${result.why ?? ""}`.trim();
  }
  return result.entries.map((e, i) => {
    const what = e.edited ? "edited it" : "discussed it";
    const lines = [
      `${i + 1}. ${e.session.title || "(untitled)"}`,
      `   ${e.session.project || "-"} · ${ref(e.session)} · ${
        age(e.session.updated, now)
      } · ${what} (${e.mentions} mention${e.mentions === 1 ? "" : "s"}${
        e.fullPath ? ", full path" : ""
      })`,
    ];
    if (e.decision) {
      lines.push(`   ${e.decisionKind ?? "decided"}: ${e.decision}`);
    }
    return lines.join("\n");
  }).join("\n");
}

/**
 * Renders one line's attribution.
 *
 * @param a What {@linkcode blameLine} found.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderAttribution(a: LineAttribution, now: number): string {
  if (!a.session) {
    return `line ${a.line}: ${a.silence ?? "no session is named"}`;
  }
  return `line ${a.line}: commit ${a.commit?.slice(0, 8)} — session ${
    ref(a.session)
  } (${a.session.project || "-"}, ${
    age(a.session.updated, now)
  }) replaced this text:\n${
    a.replaced?.split("\n").map((l) => `  | ${l}`).join("\n")
  }`;
}

/**
 * Renders a file list.
 *
 * @param files File uses.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderFiles(files: readonly FileUse[], now: number): string {
  if (files.length === 0) return "No files on file for that.";
  return files.map((f) =>
    `${f.display}  — ${f.sessions} session${f.sessions === 1 ? "" : "s"}${
      f.edits ? `, edited in ${f.edits}` : ", read only"
    }${f.last !== undefined ? `, last ${formatAge(f.last, now)}` : ""}`
  ).join("\n");
}

/**
 * Renders an orientation, led by the project's accepted notes.
 *
 * @param o What {@linkcode orient} found.
 * @param notes The project's notes.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderOrient(
  o: Orientation,
  notes: readonly Note[],
  now: number,
): string {
  const out = [
    `${o.project || "(no project)"}: ${o.sessions} session${
      o.sessions === 1 ? "" : "s"
    } on file`,
  ];
  const accepted = notes.filter((n) => n.note.state === "accepted");
  if (accepted.length) {
    out.push(
      "notes:",
      ...accepted.slice(0, 6).map((n) => `- ${noteLine(n, 200)}`),
    );
  }
  if (o.commands.length) {
    out.push("commands that ran clean here:");
    for (const c of o.commands) {
      out.push(
        `- ${c.command}  (${c.sessions} session${
          c.sessions === 1 ? "" : "s"
        }, ${c.ok}/${c.runs} ok${
          c.last !== undefined ? `, last ${formatAge(c.last, now)}` : ""
        })`,
      );
    }
  }
  if (o.files.length) {
    out.push(
      "files sessions keep opening:",
      ...renderFiles(o.files, now).split("\n").map((l) => `- ${l}`),
    );
  }
  if (o.commands.length === 0 && o.files.length === 0) {
    out.push("No commands or files recorded for this project yet.");
  }
  return out.join("\n");
}

/**
 * Renders a session list with resume commands.
 *
 * @param sessions Sessions, newest first.
 * @param now The clock, epoch ms.
 * @returns Text.
 */
export function renderSessions(
  sessions: readonly SessionInfo[],
  now: number,
): string {
  if (sessions.length === 0) return "No sessions on file.";
  return sessions.map((s, i) => {
    const resume = resumeCommand(s);
    return `${i + 1}. ${s.title || "(untitled)"}\n   ${s.harness} · ${
      s.project || "-"
    } · ${age(s.updated, now)} · ${s.id}${
      resume ? `\n   resume: ${resume.display}` : ""
    }`;
  }).join("\n");
}
