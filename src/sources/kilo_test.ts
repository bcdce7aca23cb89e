import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { kilo } from "./kilo.ts";
import { writeFixtureDb } from "./_store_test_kit.ts";
import { roles } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/kilo", import.meta.url),
);
const TASKS =
  `${FIXTURE_HOME}/.config/Code/User/globalStorage/kilocode.kilo-code/tasks`;
const PARENT = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const CHILD = "5e4f3a2b-1c0d-4e9f-8a7b-6c5d4e3f2a1b";
/** A task with no history item: Kilo keeps its history in globalState. */
const BARE = "1774002000000";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };

Deno.test("kilo.discover() finds the fixture's tasks and files them under kilo", async () => {
  const found = await kilo.discover(source);
  deepEqual(found, [
    `${TASKS}/${BARE}/ui_messages.json`,
    `${TASKS}/${CHILD}/ui_messages.json`,
    `${TASKS}/${PARENT}/ui_messages.json`,
  ]);
  const kind = kilo.kinds.find((k) => k.match(found[2] as string));
  const result = await kind?.parse(found[2] as string, {
    includeSubagents: true,
    source,
  });
  const s = result?.sessions[0];
  equal(s?.harness, "kilo");
  equal(s?.project, "crm-web");
  ok(s?.records.some((r) => r.role === "user"));
  ok(s?.records.some((r) => r.role === "assistant"));
  equal(s?.records.find((r) => r.tool === "execute_command")?.exitCode, 2);
});

Deno.test("kilo skips sub-tasks when sub-agents are off", async () => {
  const path = `${TASKS}/${CHILD}/ui_messages.json`;
  const kind = kilo.kinds.find((k) => k.match(path));
  const off = await kind?.parse(path, { includeSubagents: false, source });
  deepEqual(off?.sessions, []);
  const on = await kind?.parse(path, { includeSubagents: true, source });
  equal(on?.sessions[0]?.parent, PARENT);
});

Deno.test("kilo roots follow DEJA_KILO_ROOTS and the OS", () => {
  // DEJA_KILO_ROOTS replaces the extension's folders, not the CLI's.
  deepEqual(
    kilo.roots({
      home: "/h",
      env: { DEJA_KILO_ROOTS: "/k1:/k2", XDG_DATA_HOME: "/x" },
      os: "linux",
    }),
    ["/k1", "/k2", "/h/.kilocode/cli/global", "/x/kilo"],
  );
  equal(
    kilo.roots({ home: "/h", env: { DEJA_KILO_CLI_ROOT: "/c" }, os: "linux" })
      .at(-1),
    "/c",
  );
  equal(
    kilo.roots({ home: "/Users/a", env: {}, os: "darwin" }).at(-1),
    "/Users/a/Library/Application Support/kilo",
  );
  equal(
    kilo.roots({ home: "C:/Users/a", env: { APPDATA: "C:/R" }, os: "windows" })
      .at(-1),
    "C:/R/kilo",
  );
  equal(
    kilo.roots({ home: "/Users/a", env: {}, os: "darwin" })[0],
    "/Users/a/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code",
  );
  equal(
    kilo.kinds[0]?.match(
      "/x/rooveterinaryinc.roo-cline/tasks/t/ui_messages.json",
    ),
    false,
  );
});

async function parseKilo(
  path: string,
  env: SourceEnv = source,
  includeSubagents = true,
): Promise<{ sessions: Session[]; skipped: number }> {
  const kind = kilo.kinds.find((k) => k.match(path));
  ok(kind, `no kind for ${path}`);
  return await kind.parse(path, { includeSubagents, source: env });
}

Deno.test("kilo reads a failed command's exit code from the API history, the cwd from its environment details", async () => {
  const { sessions: [s] } = await parseKilo(
    `${TASKS}/${BARE}/ui_messages.json`,
  );
  equal(s?.cwd, "/home/dev/projects/gecko-proxy");
  equal(roles(s), "user,assistant,command,tool-output,assistant");
  const r = s?.records ?? [];
  equal(r[2]?.text, "go test ./proxy -run TestBurst");
  equal(r[2]?.exitCode, 1);
  equal(r[3]?.flags?.isError, true);
});

Deno.test("kilo takes a task's project and parent from VS Code's globalState", async (t) => {
  const home = await Deno.makeTempDir();
  const storage = `${home}/.config/Code/User/globalStorage`;
  const tasks = `${storage}/kilocode.kilo-code/tasks`;
  const task = (text: string) => [
    { ts: 1774000000000, type: "say", say: "text", text },
    { ts: 1774000001000, type: "say", say: "api_req_started", text: "{}" },
  ];
  for (
    const [id, text] of [["k1", "add rate limiting"], ["k2", "profile it"]]
  ) {
    await Deno.mkdir(`${tasks}/${id}`, { recursive: true });
    await Deno.writeTextFile(
      `${tasks}/${id}/ui_messages.json`,
      JSON.stringify(task(text as string)),
    );
  }
  const globalState = (value: string) =>
    writeFixtureDb(
      `${storage}/state.vscdb`,
      "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
      [{
        table: "ItemTable",
        rows: [{ key: "kilocode.kilo-code", value }, {
          key: "rooveterinaryinc.roo-cline",
          value: JSON.stringify({
            taskHistory: [{ id: "k1", workspace: "/x" }],
          }),
        }],
      }],
    );
  await globalState(JSON.stringify({
    kilocodeToken: "not read",
    taskHistory: [
      {
        id: "k1",
        ts: 1774000009000,
        task: "add rate limiting",
        workspace: "/w/gecko-proxy",
      },
      {
        id: "k2",
        ts: 1774000008000,
        task: "profile it",
        workspace: "/w/gecko-proxy",
        parentTaskId: "k1",
        rootTaskId: "k1",
      },
    ],
  }));
  const env: SourceEnv = { home, env: {}, os: "linux" };
  await t.step("project and parent", async () => {
    const [parent] =
      (await parseKilo(`${tasks}/k1/ui_messages.json`, env)).sessions;
    equal(parent?.project, "gecko-proxy");
    equal(parent?.parent, undefined);
    const [child] =
      (await parseKilo(`${tasks}/k2/ui_messages.json`, env)).sessions;
    equal(child?.parent, "k1");
    equal(child?.lineage, "subagent");
    equal(child?.project, "gecko-proxy");
    deepEqual(
      (await parseKilo(`${tasks}/k2/ui_messages.json`, env, false)).sessions,
      [],
    );
  });
  await t.step(
    "a globalState that is not JSON is counted, not silent",
    async () => {
      await globalState("{torn");
      const { sessions: [s], skipped } = await parseKilo(
        `${tasks}/k2/ui_messages.json`,
        env,
      );
      equal(skipped, 1);
      equal(s?.parent, undefined);
      equal(s?.project, "");
    },
  );
  await t.step("task_history.json beside the tasks comes first", async () => {
    await Deno.writeTextFile(
      `${storage}/kilocode.kilo-code/task_history.json`,
      JSON.stringify([{
        id: "k2",
        workspace: "/w/limiter",
        parentTaskId: "k1",
      }]),
    );
    const { sessions: [s] } = await parseKilo(
      `${tasks}/k2/ui_messages.json`,
      env,
    );
    equal(s?.project, "limiter");
    equal(s?.parent, "k1");
  });
});

Deno.test("kilo reads Kilo CLI 1.0's kilo.db and the 0.x CLI's task folders", async (t) => {
  const home = await Deno.makeTempDir();
  const data = `${home}/.local/share/kilo`;
  await Deno.mkdir(`${data}/snapshot/prj`, { recursive: true });
  await Deno.writeTextFile(`${data}/snapshot/prj/kilo.db`, "not a store");
  const T0 = 1_790_000_000_000;
  await writeFixtureDb(
    `${data}/kilo.db`,
    `CREATE TABLE session (id text PRIMARY KEY, parent_id text, directory text NOT NULL, title text NOT NULL, revert text, time_created integer, time_updated integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, data text NOT NULL);`,
    [
      {
        table: "session",
        rows: [{
          id: "ses_k1",
          directory: "/home/dev/lynx-app",
          title: "Lynx login",
          time_created: T0,
          time_updated: T0 + 5000,
        }],
      },
      {
        table: "message",
        rows: [
          {
            id: "msg_1",
            session_id: "ses_k1",
            time_created: T0,
            data: JSON.stringify({ role: "user", time: { created: T0 } }),
          },
          {
            id: "msg_2",
            session_id: "ses_k1",
            time_created: T0 + 1000,
            data: JSON.stringify({
              role: "assistant",
              time: { created: T0 + 1000, completed: T0 + 5000 },
              path: { cwd: "/home/dev/lynx-app", root: "/home/dev/lynx-app" },
            }),
          },
        ],
      },
      {
        table: "part",
        rows: [
          {
            id: "prt_1",
            message_id: "msg_1",
            session_id: "ses_k1",
            data: JSON.stringify({ type: "text", text: "fix the lynx login" }),
          },
          {
            id: "prt_2",
            message_id: "msg_2",
            session_id: "ses_k1",
            data: JSON.stringify({
              type: "tool",
              tool: "bash",
              callID: "c1",
              state: {
                status: "completed",
                input: { command: "npm test" },
                output: "1 failing",
                metadata: { exit: 1 },
              },
            }),
          },
          {
            id: "prt_3",
            message_id: "msg_2",
            session_id: "ses_k1",
            data: JSON.stringify({ type: "text", text: "One test fails." }),
          },
        ],
      },
    ],
  );
  const task = `${home}/.kilocode/cli/global/tasks/1790000100000`;
  await Deno.mkdir(task, { recursive: true });
  await Deno.writeTextFile(
    `${task}/ui_messages.json`,
    JSON.stringify([
      { ts: T0, type: "say", say: "text", text: "rename the lynx module" },
      { ts: T0 + 10, type: "say", say: "completion_result", text: "Renamed." },
    ]),
  );
  const env: SourceEnv = { home, env: {}, os: "linux" };
  const found = await kilo.discover(env);
  await t.step("discovery", () => {
    deepEqual(found, [`${task}/ui_messages.json`, `${data}/kilo.db`]);
  });
  await t.step("the store, filed under kilo", async () => {
    const path = `${data}/kilo.db`;
    const kind = kilo.kinds.find((k) => k.match(path));
    equal(kind?.id, "cli-db");
    const result = await kind?.parse(path, {
      includeSubagents: true,
      source: env,
    });
    const s = result?.sessions[0] as Session;
    equal(s.harness, "kilo");
    equal(s.id, "ses_k1");
    deepEqual(
      s.records.map((r) => [r.role, r.text, r.exitCode]),
      [
        ["user", "fix the lynx login", undefined],
        ["command", "npm test", 1],
        ["tool-output", "1 failing", undefined],
        ["assistant", "One test fails.", undefined],
      ],
    );
  });
  await t.step("the 0.x CLI's task", async () => {
    const path = found[0] as string;
    const result = await kilo.kinds.find((k) => k.match(path))?.parse(path, {
      includeSubagents: true,
      source: env,
    });
    const s = result?.sessions[0] as Session;
    equal(s.harness, "kilo");
    equal(roles(s), "user,assistant");
  });
  await t.step("KILO_DB names another store", async () => {
    await Deno.copyFile(`${data}/kilo.db`, `${home}/elsewhere.db`);
    const named = await kilo.discover({
      home,
      env: { KILO_DB: `${home}/elsewhere.db` },
      os: "linux",
    });
    ok(named.includes(`${home}/elsewhere.db`));
  });
});
