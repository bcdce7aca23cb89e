/**
 * The one `deja` tool and its modes: recall, context, blame, fix, how,
 * orient, remember, handoff. Every answer leaves in the `<deja-recall>`
 * trust frame; live sessions are left out of what is recalled.
 *
 * @module
 */
import { HARNESS_IDS, harnessId } from "../core/harness_ids.ts";
import { formatAge } from "../core/time.ts";
import { damagedFileError } from "../core/damaged_file.ts";
import { DejaError, messageOf } from "../core/errors.ts";
import { listNotes, openMemory, remember } from "../memory/mod.ts";
import {
  blame,
  blameLine,
  contextDigest,
  fixFor,
  frameOverhead,
  frameRecall,
  handoffPacket,
  howTo,
  loadNotes,
  orient,
  parseBlameTarget,
  RECALL_BUDGET,
  recallAnswer,
  renderAttribution,
  renderBlame,
  renderFix,
  renderHow,
  renderOrient,
} from "../recall/mod.ts";
import {
  holds,
  liveExclusions,
  type McpContext,
  noIndexText,
  openForCall,
  projectFor,
} from "./mcp_context.ts";

/** The modes of the `deja` tool. */
export const DEJA_MODES = [
  "recall",
  "context",
  "blame",
  "fix",
  "how",
  "orient",
  "remember",
  "handoff",
] as const;

/** One of {@linkcode DEJA_MODES}. */
export type DejaMode = typeof DEJA_MODES[number];

/** Arguments of the `deja` tool. */
export interface DejaArgs {
  /** What to do. */
  mode: DejaMode;
  /** recall: the question; fix: the error; how: what to do. */
  query?: string;
  /** context: the session id (or `harness:id`, or a prefix); handoff: optional. */
  session?: string;
  /** blame: a file path, optionally `:line`. */
  path?: string;
  /** remember: the decision to store. */
  text?: string;
  /** The project (default: the server's working directory). */
  project?: string;
  /** handoff: the agent that picks the work up (harness id). */
  to?: string;
}

/** A tool answer: framed text, and whether it is an error. */
export interface ToolAnswer {
  /** The framed text. */
  text: string;
  /** Whether the call failed. */
  isError?: boolean;
}

/** The harness `to` names, read as `--to` reads it (any case, aliases). */
function knownAgent(name: string): string {
  const id = harnessId(name);
  if (!id) {
    throw new TypeError(
      `Unknown harness "${name}": use one of ${HARNESS_IDS.join(", ")}`,
    );
  }
  return id;
}

function need(value: string | undefined, what: string, mode: string): string {
  const v = value?.trim();
  if (!v) throw new TypeError(`mode "${mode}" needs ${what}`);
  return v;
}

function indexNote(
  state: string,
  refreshing: boolean,
  ctx: McpContext,
): string | undefined {
  if (state === "building") {
    return "The index is being built right now: this answer may miss recent sessions.";
  }
  if (state === "stale") {
    try {
      const t = Deno.statSync(ctx.indexPath).mtime?.getTime();
      if (t) {
        return `Index last written ${formatAge(t, ctx.now())}${
          refreshing ? "; a refresh is running in the background" : ""
        }.`;
      }
    } catch {
      // The note is a courtesy.
    }
  }
  return undefined;
}

/**
 * Answers one `deja` tool call.
 *
 * @param args The tool arguments.
 * @param ctx The server context.
 * @returns The framed answer.
 */
export async function answerDeja(
  args: DejaArgs,
  ctx: McpContext,
): Promise<ToolAnswer> {
  try {
    return await dispatch(args, ctx);
  } catch (err) {
    const damaged = damagedFileError(err, {
      index: ctx.indexPath,
      memory: ctx.memoryPath,
    });
    const code = (err as { code?: unknown }).code;
    return {
      text: frameRecall(
        damaged
          ? `error: ${damaged}`
          : `error: ${messageOf(err)}${
            typeof code === "string" ? ` [${code}]` : ""
          }`,
        { kind: "error" },
      ),
      isError: true,
    };
  }
}

async function dispatch(args: DejaArgs, ctx: McpContext): Promise<ToolAnswer> {
  const project = projectFor(ctx, args.project);
  if (args.mode === "remember") return rememberNote(args, ctx, project);
  const opened = openForCall(ctx);
  const { db, state, refreshing } = opened;
  if (!db) {
    return {
      text: frameRecall(noIndexText(opened, ctx), { kind: args.mode }),
    };
  }
  const now = ctx.now();
  const note = indexNote(state, refreshing, ctx);
  const frame = (body: string) => ({
    text: frameRecall(body, { kind: args.mode, ...(note ? { note } : {}) }),
  });
  try {
    switch (args.mode) {
      case "recall": {
        const query = need(args.query, "a query", "recall");
        const answer = await recallAnswer(db, query, {
          project,
          exclude: liveExclusions(ctx),
          notes: await loadNotes(ctx.memoryPath),
          budget: RECALL_BUDGET - frameOverhead("recall", note),
          now,
        });
        return frame(answer.text);
      }
      case "context": {
        const digest = await contextDigest(
          db,
          need(args.session, "a session id", "context"),
          { now, budget: 8192 },
        );
        return frame(digest.markdown);
      }
      case "blame": {
        const { file, line } = parseBlameTarget(
          need(args.path, "a path", "blame"),
        );
        const exclude = liveExclusions(ctx);
        const parts: string[] = [];
        if (line !== undefined) {
          parts.push(
            renderAttribution(
              await blameLine(db, file, {
                line,
                cwd: ctx.cwd,
                exclude,
              }),
              now,
            ),
            "",
          );
        }
        parts.push(
          renderBlame(
            await blame(db, file, { cwd: ctx.cwd, exclude, now }),
            now,
          ),
        );
        return frame(parts.join("\n"));
      }
      case "fix": {
        const result = await fixFor(
          db,
          need(args.query, "the error text", "fix"),
          { project, exclude: liveExclusions(ctx) },
        );
        return frame(renderFix(result, now));
      }
      case "how": {
        const result = await howTo(db, need(args.query, "what to do", "how"), {
          project,
          exclude: liveExclusions(ctx),
          now,
        });
        return frame(renderHow(result, now));
      }
      case "orient": {
        const o = await orient(db, project, {
          exclude: liveExclusions(ctx),
          now,
        });
        return frame(
          renderOrient(o, await loadNotes(ctx.memoryPath, { project }), now),
        );
      }
      case "handoff": {
        const to = args.to?.trim() ? knownAgent(args.to) : undefined;
        // A server started in "/" (Claude Desktop) knows no project: the
        // latest session of any project is not the one to continue.
        if (!args.session && !project) {
          throw new TypeError(
            `Name a session or a project for handoff: the server's directory "${ctx.cwd}" names no project`,
          );
        }
        const packet = await handoffPacket(db, {
          ...(args.session ? { session: args.session } : {}),
          project,
          ...(to ? { to } : {}),
          now,
        });
        return frame(
          packet
            ? packet.markdown
            : `No session of ${project || "this project"} to hand off.`,
        );
      }
      default:
        throw new TypeError(
          `Unknown mode "${String(args.mode)}": use one of ${
            DEJA_MODES.join(", ")
          }`,
        );
    }
  } finally {
    db.close();
  }
}

function rememberNote(
  args: DejaArgs,
  ctx: McpContext,
  project: string,
): ToolAnswer {
  const text = need(
    args.text ?? args.query,
    "the text to remember",
    "remember",
  );
  if (!holds(ctx, "write")) {
    throw new DejaError(
      "LOOP-E002",
      `"${ctx.actor}" lacks the write scope a note needs (deja mcp --scopes)`,
    );
  }
  const store = openMemory(ctx.memoryPath, { now: ctx.now });
  try {
    const hash = remember(store, text, {
      ...(project ? { project } : {}),
      actor: ctx.actor,
      state: "proposed",
      now: ctx.now(),
    });
    const same = listNotes(store, project ? { project } : {}).length;
    return {
      text: frameRecall(
        `Stored note ${hash.slice(0, 12)} for ${
          project || "no project"
        } as proposed (${same} note${
          same === 1 ? "" : "s"
        } on file for it). A person accepts it with: deja promote ${
          hash.slice(0, 12)
        } --state accepted`,
        { kind: "remember" },
      ),
    };
  } finally {
    store.close();
  }
}
