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
    "user,assistant,files,files,assistant,user,tool-output,files,edit,command,tool-output,summary,assistant",
  );
  const r = s?.records ?? [];
  equal(
    r[4]?.text,
    "Should each step keep its own state, or lift it into the wizard?",
  );
  equal(r[6]?.tool, "new_task");
  equal(
    r[8]?.text,
    "src/import/ImportWizard.tsx\n  const [file, setFile] = useState<File | null>(null);",
  );
  equal(r[9]?.exitCode, 2);
  ok(r[11]?.text.startsWith("Split ImportWizard into UploadStep"));
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
