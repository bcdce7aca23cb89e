import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseOptions, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { roo } from "./roo.ts";
import { roles } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/roo", import.meta.url),
);
const TASKS =
  `${FIXTURE_HOME}/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks`;
const PARENT = "0b6f1c2e-3d4a-4b5c-9e8f-7a6b5c4d3e2f";
const CHILD = "4c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f";
/** A current task: requests without `request`, a v2 API history, no history item. */
const CURRENT = "019d2f6a-7c1e-7b3a-9f20-5d4c3b2a1908";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };

async function parse(
  path: string,
  includeSubagents = true,
  env: SourceEnv = source,
): Promise<Session[]> {
  const kind = roo.kinds.find((k) => k.match(path));
  ok(kind, `no kind for ${path}`);
  const options: ParseOptions = { includeSubagents, source: env };
  return (await kind.parse(path, options)).sessions;
}

Deno.test("roo.discover() finds the fixture's tasks", async () => {
  deepEqual(await roo.discover(source), [
    `${TASKS}/${CURRENT}/ui_messages.json`,
    `${TASKS}/${PARENT}/ui_messages.json`,
    `${TASKS}/${CHILD}/ui_messages.json`,
  ]);
});

Deno.test("roo reads a task: followups, diffs, exit codes, sub-task results, condensed context", async () => {
  const [s] = await parse(`${TASKS}/${PARENT}/ui_messages.json`);
  equal(s?.harness, "roo");
  equal(s?.id, PARENT);
  equal(s?.cwd, "/home/dev/projects/crm-web");
  equal(
    roles(s),
    "user,assistant,files,files,assistant,user,assistant,tool-output,files,edit,command,tool-output,summary,assistant",
  );
  const r = s?.records ?? [];
  equal(
    r[4]?.text,
    "Should each step keep its own state, or lift it into the wizard?",
  );
  equal(r[6]?.text, "Extract the upload step into UploadStep.tsx");
  equal(r[7]?.tool, "new_task");
  equal(
    r[9]?.text,
    "src/import/ImportWizard.tsx\n  const [file, setFile] = useState<File | null>(null);",
  );
  equal(r[10]?.exitCode, 2);
  equal(r[11]?.flags?.isError, true);
  ok(r[12]?.text.startsWith("Split ImportWizard into UploadStep"));
  ok(!r.some((x) => x.text.includes("Three steps")), "reasoning left out");
});

Deno.test("roo reads a new_task sub-task as a sub-agent of its parent", async (t) => {
  const path = `${TASKS}/${CHILD}/ui_messages.json`;
  await t.step("included", async () => {
    const [s] = await parse(path);
    equal(s?.parent, PARENT);
    equal(s?.lineage, "subagent");
    ok(s?.records.every((r) => r.flags?.subagent));
    equal(roles(s), "user,assistant,files,assistant");
  });
  await t.step("excluded", async () => {
    deepEqual(await parse(path, false), []);
  });
});

Deno.test("roo finds custom storage paths and the CLI store", async () => {
  const home = await Deno.makeTempDir();
  const custom = `${home}/elsewhere/roo`;
  await Deno.mkdir(`${home}/.config/VSCodium/User`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/VSCodium/User/settings.json`,
    `{
      // where Roo keeps tasks
      "editor.fontSize": 13, /* block comment with "quotes" */
      "roo-cline.customStoragePath": "${custom}",
    }`,
  );
  const task = [{ ts: 1, type: "say", say: "text", text: "hello" }];
  for (const root of [custom, `${home}/.vscode-mock/global-storage`]) {
    await Deno.mkdir(`${root}/tasks/t-${root.length}`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/tasks/t-${root.length}/ui_messages.json`,
      JSON.stringify(task),
    );
  }
  const env: SourceEnv = { home, env: {}, os: "linux" };
  const found = await roo.discover(env);
  equal(found.length, 2);
  ok(found.some((p) => p.startsWith(custom)));
  ok(found.some((p) => p.includes(".vscode-mock")));
  for (const p of found) equal(roles((await parse(p, true, env))[0]), "user");
  deepEqual(
    roo.roots({
      home: "/h",
      env: { DEJA_ROO_ROOTS: "/a", DEJA_ROO_CLI_ROOT: "/m" },
      os: "linux",
    }),
    ["/a", "/m"],
  );
});

Deno.test("roo ignores Cline's and Kilo's task folders", () => {
  const kind = roo.kinds[0];
  equal(
    kind?.match("/c/saoudrizwan.claude-dev/tasks/t/ui_messages.json"),
    false,
  );
  equal(kind?.match("/c/kilocode.kilo-code/tasks/t/ui_messages.json"), false);
  equal(
    kind?.match("/c/rooveterinaryinc.roo-cline/tasks/t/ui_messages.json"),
    true,
  );
});

Deno.test("roo survives a broken history_item.json and a torn ui_messages.json", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/rooveterinaryinc.roo-cline/tasks/t1`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/history_item.json`,
    '{"id": "t1", "parentTaskId": ',
  );
  await Deno.writeTextFile(
    `${dir}/ui_messages.json`,
    JSON.stringify([{ ts: 1, type: "say", say: "text", text: "hi" }]),
  );
  const [s] = await parse(`${dir}/ui_messages.json`);
  equal(s?.lineage, undefined);
  await Deno.writeTextFile(
    `${dir}/ui_messages.json`,
    '[{"ts":1,"type":"say","say":"te',
  );
  deepEqual(await parse(`${dir}/ui_messages.json`), []);
});

Deno.test("roo reads a current task: exit codes and output from the v2 API history, MCP calls, errors, the cwd", async () => {
  const [s] = await parse(`${TASKS}/${CURRENT}/ui_messages.json`);
  equal(s?.cwd, "/home/dev/projects/billing-api");
  equal(
    roles(s),
    "user,assistant,command,tool-output,command,tool-output,tool-output,tool-output,command,tool-output,assistant",
  );
  const r = s?.records ?? [];
  equal(r[2]?.text, "npm run seed");
  equal(r[2]?.exitCode, 1);
  equal(r[3]?.flags?.isError, true);
  ok(r[3]?.text.endsWith('Error: relation "plans" does not exist'));
  equal(
    r[4]?.text,
    `postgres query {"sql":"select count(*) from pg_tables where tablename = 'plans'"}`,
  );
  equal(r[4]?.tool, "mcp__postgres__query");
  equal(r[5]?.tool, "mcp__postgres__query");
  deepEqual([r[6]?.tool, r[6]?.flags?.isError], ["roo", true]);
  ok(r[6]?.text.includes("without value for required parameter"));
  deepEqual([r[7]?.tool, r[7]?.flags?.isError], ["model", true]);
  equal(r[8]?.exitCode, 0);
  // The panel showed no output: the API history's is used.
  equal(r[9]?.text, "Batch 1 run: 4 migrations\nSeeded 12 plans");
  equal(r[9]?.time, r[8]?.time);
  equal(r[9]?.flags, undefined);
});

Deno.test("roo reads a v2 API history when the panel messages are gone", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/rooveterinaryinc.roo-cline/tasks/${CURRENT}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.copyFile(
    `${TASKS}/${CURRENT}/api_conversation_history.json`,
    `${dir}/api_conversation_history.json`,
  );
  const [s] = await parse(`${dir}/api_conversation_history.json`);
  equal(s?.cwd, "/home/dev/projects/billing-api");
  equal(
    roles(s),
    "user,assistant,command,tool-output,command,tool-output,command,tool-output,assistant",
  );
  const r = s?.records ?? [];
  equal(r[0]?.text, "Why does `npm run seed` fail on a fresh database?");
  equal(r[2]?.exitCode, 1);
  equal(r[3]?.flags?.isError, true);
  equal(r[4]?.tool, "mcp__postgres__query");
  ok(r[4]?.text.startsWith("postgres query {"));
  equal(r[5]?.tool, "mcp__postgres__query");
  equal(r[6]?.exitCode, 0);
  equal(r[7]?.flags, undefined);
  ok(r[8]?.text.startsWith("The seed ran before the migrations"));
});

Deno.test("roo takes a history item's title, never makes a task its own parent, and falls back to _index.json", async (t) => {
  const root = await Deno.makeTempDir();
  const tasks = `${root}/rooveterinaryinc.roo-cline/tasks`;
  await Deno.mkdir(`${tasks}/t1`, { recursive: true });
  await Deno.writeTextFile(
    `${tasks}/t1/ui_messages.json`,
    JSON.stringify([{
      ts: 1,
      type: "say",
      say: "text",
      text: "why is seed slow",
    }]),
  );
  await t.step("title and self-parent", async () => {
    await Deno.writeTextFile(
      `${tasks}/t1/history_item.json`,
      JSON.stringify({
        id: "t1",
        task: "why is seed slow",
        title: "Seed performance",
        workspace: "/w/api",
        parentTaskId: "t1",
      }),
    );
    const [s] = await parse(`${tasks}/t1/ui_messages.json`);
    equal(s?.title, "Seed performance");
    equal(s?.titleGiven, true);
    equal(s?.parent, undefined);
    equal(s?.lineage, undefined);
    equal(s?.cwd, "/w/api");
  });
  await t.step("a broken history item: the index, and a skip", async () => {
    await Deno.writeTextFile(`${tasks}/t1/history_item.json`, '{"id": "t1",');
    await Deno.writeTextFile(
      `${tasks}/_index.json`,
      JSON.stringify({
        version: 1,
        updatedAt: 2,
        entries: [{ id: "t1", workspace: "/w/api2", parentTaskId: "t0" }],
      }),
    );
    const path = `${tasks}/t1/ui_messages.json`;
    const kind = roo.kinds.find((k) => k.match(path));
    const result = await kind?.parse(path, { includeSubagents: true, source });
    equal(result?.skipped, 1);
    equal(result?.sessions[0]?.cwd, "/w/api2");
    equal(result?.sessions[0]?.parent, "t0");
  });
});

Deno.test("roo reads the files and replaced text of every edit_file variant and the search_replace and edit tools", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/rooveterinaryinc.roo-cline/tasks/t-edits`;
  await Deno.mkdir(dir, { recursive: true });
  const call = (id: string, toolName: string, input: unknown) => ({
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: id, toolName, input }],
  });
  await Deno.writeTextFile(
    `${dir}/api_conversation_history.json`,
    JSON.stringify({
      version: 2,
      messages: [
        {
          role: "user",
          content: [{
            type: "text",
            text: "<user_message>\nrename the heron flags\n</user_message>",
          }],
        },
        call("c1", "search_replace", {
          file_path: "src/a.ts",
          old_string: "const heronA = 1;",
          new_string: "const heronFlagA = 1;",
        }),
        call("c2", "edit", {
          file_path: "src/b.ts",
          old_string: "const heronB = 2;",
          new_string: "const heronFlagB = 2;",
        }),
        call("c3", "edit_file", {
          path: "src/c.ts",
          edits: [{ old_text: "const heronC = 3;", new_text: "x" }],
        }),
        call("c4", "edit_file", {
          path: "src/d.ts",
          diff:
            "<<<<<<< SEARCH\n:start_line:4\n-------\nconst heronD = 4;\n=======\nconst heronFlagD = 4;\n>>>>>>> REPLACE",
        }),
        call("c5", "edit_file", {
          patch:
            "*** Begin Patch\n*** Update File: src/e.ts\n@@\n-const heronE = 5;\n+const heronFlagE = 5;\n*** End Patch",
        }),
      ],
    }),
  );
  const [s] = await parse(`${dir}/api_conversation_history.json`);
  const r = (s?.records ?? []).filter((x) => x.role !== "user");
  deepEqual(r.map((x) => `${x.role} ${x.tool}: ${x.text}`), [
    "files search_replace: src/a.ts",
    "edit search_replace: src/a.ts\nconst heronA = 1;",
    "files edit: src/b.ts",
    "edit edit: src/b.ts\nconst heronB = 2;",
    "files edit_file: src/c.ts",
    "edit edit_file: src/c.ts\nconst heronC = 3;",
    "files edit_file: src/d.ts",
    "edit edit_file: src/d.ts\nconst heronD = 4;",
    "files edit_file: src/e.ts",
    "edit edit_file: src/e.ts\nconst heronE = 5;",
  ]);
});
