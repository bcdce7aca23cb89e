import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseOptions, SourceEnv } from "../core/harness.ts";
import { sha256Hex } from "../core/hash.ts";
import { isSuperseded } from "../core/types.ts";
import { intendant, parseIntendantLog } from "./intendant.ts";
import { jsonLines, roles } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/intendant", import.meta.url),
);
const LOGS = `${FIXTURE_HOME}/.intendant/logs`;
const NEW_ERA = "5d4c3b2a-1908-4f7e-8d6c-5b4a39281706";
const LEGACY = "8e7d6c5b-4a39-4281-9706-f5e4d3c2b1a0";
const WRAPPER = "2b1a0f9e-8d7c-46b5-a493-82716f5e4d3c";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };
const opts: ParseOptions = { includeSubagents: true, source };

async function sessionDir(
  events: unknown[] | string,
  meta: unknown = {},
  sidecars: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/turns`);
  await Deno.writeTextFile(`${dir}/session_meta.json`, JSON.stringify(meta));
  for (const [name, text] of Object.entries(sidecars)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  await Deno.writeTextFile(
    `${dir}/session.jsonl`,
    typeof events === "string" ? events : jsonLines(events),
  );
  return `${dir}/session.jsonl`;
}

Deno.test("intendant.discover() finds every session log", async () => {
  deepEqual(await intendant.discover(source), [
    `${LOGS}/${WRAPPER}/session.jsonl`,
    `${LOGS}/${NEW_ERA}/session.jsonl`,
    `${LOGS}/${LEGACY}/session.jsonl`,
  ]);
  deepEqual(
    intendant.roots({ home: "/h", env: { INTENDANT_HOME: "/i" }, os: "linux" }),
    ["/i/logs"],
  );
});

Deno.test("parseIntendantLog() reads the message lane, sidecar spans and a rewind", async () => {
  const { sessions, skipped } = await parseIntendantLog(
    `${LOGS}/${NEW_ERA}/session.jsonl`,
    opts,
  );
  equal(skipped, 0);
  const s = sessions[0];
  equal(s?.id, NEW_ERA);
  equal(s?.title, "Fix endless feed retries");
  equal(s?.project, "feedr");
  equal(roles(s), "user,assistant,user,assistant,user,assistant");
  const r = s?.records ?? [];
  ok(r[1]?.text.startsWith("The retry loop in `fetch_feed`"));
  equal(
    r[5]?.text,
    "Instead I changed the loop to use `backoff::retry` with a 30 s budget.",
  );
  equal(r[0]?.locator.recordId, "msg-1");
  // cut_after_seq 2: the follow-up (3) and its answer (4) are superseded.
  deepEqual(s?.marks, [{ kind: "rewind", from: 2, to: 4 }]);
  deepEqual(
    r.filter((x) => isSuperseded(x.seq, s?.marks ?? [])).map((x) =>
      x.text.slice(0, 12)
    ),
    ["also cap the", "Moved `attem"],
  );
  ok(!r.some((x) => x.text.includes("[Context]")), "system injection left out");
});

Deno.test("parseIntendantLog() rebuilds a legacy log with midnight-wrapped times", async () => {
  const s = (await parseIntendantLog(`${LOGS}/${LEGACY}/session.jsonl`, opts))
    .sessions[0];
  equal(roles(s), "user,assistant,user,assistant,user");
  const r = s?.records ?? [];
  equal(r[2]?.text, "and make the validator catch this");
  equal(r[4]?.text, "add a test for it");
  equal(r[0]?.time, new Date(2026, 0, 15, 23, 58, 30, 200).getTime());
  equal(r[3]?.time, new Date(2026, 0, 16, 0, 0, 30).getTime());
});

Deno.test("parseIntendantLog() skips wrapper sessions", async () => {
  const r = await parseIntendantLog(`${LOGS}/${WRAPPER}/session.jsonl`, opts);
  deepEqual(r.sessions, []);
});

Deno.test("parseIntendantLog() splits a resumed log at its epoch marker", async () => {
  const legacyAnswer = "Use the index on created_at.";
  const path = await sessionDir(
    [
      {
        ts: "09:00:00",
        event: "session_started",
        data: { task: "the report query is slow" },
      },
      {
        ts: "09:00:10",
        event: "model_response",
        file: "turns/turn_001_model.txt",
      },
      {
        ts: "09:00:20",
        event: "info",
        message: "Round 2 follow-up: and for the export too",
      },
      {
        ts: "10:00:00",
        ts_ms: 1772010000000,
        event: "conversation_message_epoch",
        data: {
          mapping: [
            [1, "user", sha256Hex("the report query is slow").slice(0, 16)],
            [2, "assistant", sha256Hex(legacyAnswer).slice(0, 16)],
            [3, "user", sha256Hex("and for the export too").slice(0, 16)],
          ],
        },
      },
      {
        ts: "10:00:01",
        ts_ms: 1772010001000,
        event: "conversation_message",
        data: {
          message_seq: 4,
          provenance: "resume_task",
          text: "continue with the export",
        },
      },
      {
        ts: "10:00:09",
        ts_ms: 1772010009000,
        event: "info",
        message: "Round 3 follow-up: diagnostics only",
      },
      {
        ts: "10:00:30",
        ts_ms: 1772010030000,
        event: "conversation_rewound",
        data: { cut_after_seq: 2, kind: "tail_rollback" },
      },
    ],
    { created_at: "2026-02-25T09:00:00", created_at_ms: 1771995600000 },
    { "turns/turn_001_model.txt": legacyAnswer + "\n" },
  );
  const s = (await parseIntendantLog(path, opts)).sessions[0];
  equal(roles(s), "user,assistant,user,user");
  deepEqual(s?.marks, [{ kind: "rewind", from: 2, to: 4 }]);
  equal(s?.records[0]?.time, 1771995600000);
});

Deno.test("parseIntendantLog() reads a sub-agent session and honours the switch", async () => {
  const path = await sessionDir(
    [{
      ts_ms: 1,
      event: "conversation_message",
      data: { message_seq: 1, provenance: "task", text: "research the API" },
    }],
    { session_id: "child", role: "research", parent_session_id: "root" },
  );
  const on = (await parseIntendantLog(path, opts)).sessions[0];
  equal(on?.parent, "root");
  equal(on?.lineage, "subagent");
  equal(on?.records[0]?.flags?.subagent, true);
  deepEqual(
    (await parseIntendantLog(path, { ...opts, includeSubagents: false }))
      .sessions,
    [],
  );
});

Deno.test("parseIntendantLog() survives torn, hostile and escaping input", async (t) => {
  await t.step("torn last line is left", async () => {
    const path = await sessionDir(
      JSON.stringify({
        ts_ms: 1,
        event: "conversation_message",
        data: { message_seq: 1, provenance: "task", text: "one" },
      }) +
        '\n{"ts_ms":2,"event":"conversation_message","data":{"message_seq":2,"provenance":"follow_up","text":"tw',
    );
    const r = await parseIntendantLog(path, opts);
    equal(roles(r.sessions[0]), "user");
    equal(r.skipped, 0);
  });
  await t.step(
    "sidecar outside the session directory is not read",
    async () => {
      const path = await sessionDir([
        {
          ts_ms: 1,
          event: "conversation_message",
          data: { message_seq: 1, provenance: "task", text: "q" },
        },
        {
          ts_ms: 2,
          event: "conversation_message",
          file: "../../../etc/passwd",
          data: { message_seq: 2, provenance: "assistant" },
        },
        {
          ts_ms: 3,
          event: "conversation_message",
          file: "/etc/hostname",
          data: { message_seq: 3, provenance: "assistant" },
        },
      ]);
      equal(roles((await parseIntendantLog(path, opts)).sessions[0]), "user");
    },
  );
  await t.step("garbage and wrong types", async () => {
    const text =
      String.fromCharCode(...crypto.getRandomValues(new Uint8Array(2048))) +
      "\n" +
      "[".repeat(100_000) + "]".repeat(100_000) + "\n" +
      [
        { event: 5 },
        { event: "conversation_message", data: "x" },
        {
          event: "conversation_message",
          data: { provenance: ["assistant"], text: 4 },
        },
        {
          event: "conversation_message",
          file: 7,
          data: { provenance: "assistant", model_offset: "a" },
        },
        { event: "conversation_rewound", data: { cut_after_seq: "2" } },
        { event: "steer_delivered", data: { id: 1 } },
      ].map((e) => JSON.stringify(e)).join("\n") + "\n";
    const r = await parseIntendantLog(await sessionDir(text, "not json"), opts);
    ok(r.skipped >= 1);
    for (const s of r.sessions) {
      for (const x of s.records) equal(typeof x.text, "string");
    }
  });
  await t.step("oversized message is capped", async () => {
    const path = await sessionDir([
      {
        ts_ms: 1,
        event: "conversation_message",
        data: { message_seq: 1, provenance: "task", text: "m".repeat(100_000) },
      },
    ]);
    equal(
      (await parseIntendantLog(path, opts)).sessions[0]?.records[0]?.flags
        ?.truncated,
      true,
    );
  });
});

Deno.test("parseIntendantLog() falls back to the meta's task for a legacy log", async () => {
  const path = await sessionDir(
    [{
      ts: "08:00:05",
      event: "model_response",
      file: "turns/turn_001_model.txt",
    }],
    { created_at: "2026-02-01T08:00:00", task: "upgrade the parser crate" },
    { "turns/turn_001_model.txt": "Bumped it to 0.9." },
  );
  const s = (await parseIntendantLog(path, opts)).sessions[0];
  equal(roles(s), "user,assistant");
  equal(s?.records[0]?.text, "upgrade the parser crate");
  equal(s?.records[0]?.locator.recordId, "task");
  equal(s?.records[0]?.time, new Date(2026, 1, 1, 8, 0, 0).getTime());
  equal(s?.records[1]?.time, new Date(2026, 1, 1, 8, 0, 5).getTime());
});
