/**
 * The eighteenth audit, end to end: passwords said in a sentence of another
 * language in tool output and commands (a notes file an agent read, a
 * commit message, a shell's output) must not reach the index, as they did.
 *
 * @module
 */
import { equal, ok } from "node:assert/strict";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";

const SECRETS = [
  "Tiger!1937ztye",
  "Harbor%3382xpaa",
  "Falcon%7373Qzwa",
  "Velvet$4625zcta",
  "Juniper#6181ztkn",
];

/** A Claude Code line of the session below. */
function claude(type: string, content: unknown, extra = {}): string {
  return JSON.stringify({
    type,
    uuid: crypto.randomUUID(),
    sessionId: "7b2e9c1a-4f3d-4a8e-9b1c-2d3e4f5a6b7c",
    cwd: "/home/dev/api",
    timestamp: "2026-11-02T09:00:00.000Z",
    message: { role: type, content },
    ...extra,
  });
}

/** A Codex rollout line. */
function codex(type: string, payload: unknown): string {
  return JSON.stringify({
    timestamp: "2026-11-02T10:00:00.000Z",
    type,
    payload,
  });
}

Deno.test("a password written in another language in tool output or a command is not indexed", async () => {
  const home = await Deno.makeTempDir({ prefix: "deja-audit18-" });
  const files: Record<string, string> = {
    ".claude/projects/-home-dev-api/7b2e9c1a-4f3d-4a8e-9b1c-2d3e4f5a6b7c.jsonl":
      [
        claude("user", "read the ops notes"),
        claude("assistant", [{
          type: "tool_use",
          id: "toolu_a18",
          name: "Read",
          input: { file_path: "/home/dev/api/NOTAS.md" },
        }]),
        claude("user", [{
          type: "tool_result",
          tool_use_id: "toolu_a18",
          content:
            "     1\u2192# Acceso\n     2\u2192la contraseña del admin es Tiger!1937ztye\n     3\u2192DBのパスワードは Harbor%3382xpaa です",
        }]),
      ].join("\n") + "\n",
    ".codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-019a7c1e-0d3b-7f21-8a4c-5e6f7a8b9c0d.jsonl":
      [
        codex("session_meta", {
          id: "019a7c1e-0d3b-7f21-8a4c-5e6f7a8b9c0d",
          timestamp: "2026-11-02T10:00:00.000Z",
          cwd: "/home/dev/api",
          originator: "codex_cli_rs",
          cli_version: "0.131.0",
        }),
        codex("event_msg", {
          type: "user_message",
          message: "commit the rotation",
        }),
        codex("response_item", {
          type: "function_call",
          name: "shell_command",
          call_id: "call_a18",
          arguments: JSON.stringify({
            command:
              'git commit -am "het wachtwoord is Falcon%7373Qzwa" && cat notas.txt',
          }),
        }),
        codex("response_item", {
          type: "function_call_output",
          call_id: "call_a18",
          output:
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nhasło do bazy to Velvet$4625zcta\nError: la contraseña del admin es Juniper#6181ztkn",
        }),
      ].join("\n") + "\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    const path = `${home}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const cli = async (...argv: string[]) => {
    const io = captureIo({ env, now: Date.UTC(2026, 11, 31) });
    const code = await run(argv, io, { keepPermissions: true });
    return { code, out: io.out() };
  };
  try {
    equal((await cli("index")).code, 0);
    const shown = (await cli("show", "7b2e9c1a", "--json")).out +
      (await cli("show", "019a7c1e", "--json")).out;
    // The records are there, their passwords are not.
    ok(shown.includes("la contraseña del admin es [redacted:"), shown);
    ok(shown.includes("het wachtwoord is [redacted:"), shown);
    let stored = "";
    for (const name of ["index.db", "index.db-wal"]) {
      try {
        stored += new TextDecoder("latin1").decode(
          await Deno.readFile(`${home}/${name}`),
        );
      } catch { /* no write-ahead log left */ }
    }
    for (const secret of SECRETS) {
      equal(shown.includes(secret), false, secret);
      equal(stored.includes(secret), false, secret);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
