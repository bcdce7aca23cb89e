/**
 * The configuration and readiness routes: `GET /api/config` reports the
 * effective server mode and host policy (read-only; policy is never
 * writable over HTTP), and `GET /api/setup` is the live checklist the
 * Setup tab renders, each row with the command that satisfies it.
 *
 * @module
 */
import { activation, scheduleSnippet } from "../loop/mod.ts";
import { modeOf } from "./_guard.ts";
import type { Hono } from "./_hono.ts";
import { json } from "./_http.ts";
import type { ServerState } from "./_state.ts";

/** The trust floor, stated for the console (no setting can change it). */
export const TRUST_FLOOR: readonly string[] = [
  "No auto-apply of free text, prompts, docs, or LLM- and command-origin recommendations",
  "Analyzers only read the memory file",
  "A policy file can lower limits, never raise them",
  "Self-approval is blocked",
  "Destructive applies need --allow-destructive and an explicit confirmation",
];

function quote(path: string): string {
  return /^[\w./:@%+=,-]+$/.test(path)
    ? path
    : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * Registers the config and setup routes.
 *
 * @param app The app.
 * @param state Shared state.
 */
export function setupRoutes(app: Hono, state: ServerState): void {
  app.get("/api/config", () => {
    const store = state.stores.memory();
    return json({
      server: {
        mode: modeOf(state.auth),
        actor: state.auth.actor,
        token_env: state.auth.tokenEnv ?? null,
        allow_apply: state.auth.allowApply,
        allow_destructive: state.auth.allowDestructive,
        writes_need_token: true,
        reads_open_on_loopback: true,
      },
      paths: {
        memory: state.stores.options.memoryPath,
        index: state.stores.options.indexPath,
      },
      policy: {
        source: state.policySource ?? null,
        effective: state.policy,
        auto_apply_from_console: state.policy.auto_apply_enabled &&
          state.auth.allowApply,
        trust_floor: TRUST_FLOOR,
      },
      analyzer_config: store ? store.config() : {},
    });
  });

  app.get("/api/setup", () => {
    const db = state.stores.index();
    const store = state.stores.memory();
    const mem = quote(state.stores.options.memoryPath);
    const sessions = db
      ? Number(
        (db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE hidden = 0")
          .get() as { n: number }).n,
      )
      : 0;
    const counts = store?.counts();
    const grains = counts
      ? Object.entries(counts).filter(([t]) =>
        t !== "recommendation" && t !== "audit"
      ).reduce((a, [, n]) => a + n, 0)
      : 0;
    const statuses = store
      ? activation(store, store.config(), { policy: state.policy })
      : [];
    const active = statuses.filter((s) => s.active).length;
    const watermark = store?.watermark();
    const mode = modeOf(state.auth);
    let schedule = "";
    try {
      const os = Deno.build.os === "darwin"
        ? "launchd"
        : Deno.build.os === "windows"
        ? "windows"
        : "cron";
      schedule = scheduleSnippet({
        os,
        everyMs: 6 * 3_600_000,
        argv: [
          "deja",
          "loop",
          "run",
          "--db",
          state.stores.options.memoryPath,
          "--min-new",
          "20",
          "--quiet",
        ],
      }).trimEnd();
    } catch {
      schedule = `deja loop schedule --print --db ${mem}`;
    }
    const items = [
      {
        id: "index",
        label: "Transcripts indexed",
        ok: sessions > 0,
        detail: db ? `${sessions} sessions in the index` : "no index yet",
        command: "deja index",
      },
      {
        id: "memory",
        label: "Memory file created",
        ok: store !== undefined,
        detail: store
          ? state.stores.options.memoryPath
          : `no memory file at ${state.stores.options.memoryPath}`,
        command: `deja init --db ${mem} --template coding-agent`,
      },
      {
        id: "grains",
        label: "Memory holds grains",
        ok: grains > 0,
        detail: `${grains} grains`,
        command: `deja remember "what to keep" --db ${mem}`,
      },
      {
        id: "capture",
        label: "Tool calls captured",
        ok: (counts?.event ?? 0) > 0,
        detail: `${
          counts?.event ?? 0
        } event grains; zero can mean the hook is not pasted or the binary is off PATH`,
        command: `deja loop run --db ${mem} --from-index`,
      },
      {
        id: "analyzers",
        label: "Analyzers active",
        ok: active > 0,
        detail: `${active} of ${
          statuses.length || "the"
        } analyzers would run now`,
        command: `deja loop analyzers --db ${mem}`,
      },
      {
        id: "loop-run",
        label: "The loop has run",
        ok: watermark !== undefined,
        detail: watermark === undefined
          ? "never ran"
          : `last run ${new Date(watermark).toISOString()}`,
        command: `deja loop run --db ${mem}`,
      },
      {
        id: "schedule",
        label: "Loop runs regularly",
        ok: watermark !== undefined && state.now() - watermark < 7 * 86_400_000,
        detail: watermark === undefined
          ? "never ran; deja has no daemon: your scheduler runs the loop"
          : `last run ${
            Math.floor((state.now() - watermark) / 86_400_000)
          } d ago; deja has no daemon: your scheduler runs the loop`,
        command: schedule,
      },
      {
        id: "policy",
        label: "Host policy",
        ok: state.policySource !== undefined,
        detail: state.policySource ?? "closed default: nothing auto-applies",
        command: `deja ui --db ${mem} --policy loop-policy.json`,
      },
      {
        id: "writes",
        label: "Review from the console",
        ok: mode !== "read-only",
        detail: `this console runs in ${mode} mode`,
        command:
          `DEJA_TOKEN=$(openssl rand -hex 16) deja ui --db ${mem} --token-env DEJA_TOKEN --allow-apply`,
      },
    ];
    return json({
      items,
      done: items.filter((i) => i.ok).length,
      total: items.length,
    });
  });
}
