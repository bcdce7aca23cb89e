import { equal, ok } from "node:assert/strict";
import {
  decodeBodySync,
  encodeBody,
  EXCERPT_FROM,
  keptCleanText,
  keptText,
} from "./_body.ts";

const longOutput = (n: number, at: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => at[i] ?? `step ${i} done`).join("\n");

Deno.test("keptText() keeps speech, commands and short output whole", async (t) => {
  for (
    const [role, text] of [
      ["user", "x".repeat(EXCERPT_FROM * 3)],
      ["assistant", longOutput(500)],
      ["command", "npm test -- --watch=false"],
      ["tool-output", "x".repeat(EXCERPT_FROM)],
    ] as const
  ) {
    await t.step(role, () => {
      const kept = keptText(role, text);
      equal(kept.stored, text);
      equal(kept.excerpted, false);
    });
  }
});

Deno.test("keptText() stores an edit whole and posts its path and the distinct words it removed", () => {
  const removed =
    "function legacyBadgerRoute() {\n  return legacyBadgerRoute;\n}";
  const kept = keptText("edit", `src/app.ts\n${removed}`);
  equal(kept.stored, `src/app.ts\n${removed}`);
  ok(kept.posting.includes("src/app.ts"));
  // Each word once (camelCase parts added by postingTokens).
  equal(kept.posting.split("legacyBadgerRoute").length - 1, 1);
  ok(kept.posting.includes("function"));
  // A long removal posts its first 200 distinct words only.
  const many = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
  const long = keptText("edit", `a.ts\n${many}`);
  ok(long.posting.includes("w199"));
  equal(long.posting.includes("w200"), false);
  equal(long.stored, `a.ts\n${many}`);
});

Deno.test("keptText() keeps a long output's edges and trouble lines in order", () => {
  const text = longOutput(600, {
    300: "FATAL: connection refused by db:5432",
    450: "warning: deprecated flag --legacy",
  });
  const kept = keptText("tool-output", text);
  equal(kept.excerpted, true);
  const lines = kept.stored.split("\n");
  equal(lines[0], "step 0 done");
  equal(lines.at(-1), "step 599 done");
  const fatal = lines.indexOf("FATAL: connection refused by db:5432");
  const warn = lines.indexOf("warning: deprecated flag --legacy");
  ok(fatal > 0 && warn > fatal, "trouble lines kept in order");
  equal(lines[15], "[… 285 lines …]");
  equal(kept.stored.includes("step 100 done"), false);
  // The gap markers are for readers, not for search.
  equal(kept.posting.includes("lines …"), false);
  ok(kept.posting.includes("connection refused"));
});

Deno.test("keptText() cuts very long lines of a long output", () => {
  const text = ["head", "y".repeat(10_000), "tail"].join("\n");
  const kept = keptText("tool-output", text);
  equal(kept.excerpted, true);
  ok(kept.stored.length < 500);
  ok(kept.stored.endsWith("…\ntail"));
});

Deno.test("encodeBody() stores text as text and deflates only long work records", async (t) => {
  await t.step("speech stays text, however long", () => {
    const body = encodeBody("assistant", "y".repeat(5000));
    equal(typeof body.bytes, "string");
    equal(body.compressed, false);
  });
  await t.step("a short work record stays text", () => {
    equal(encodeBody("command", "npm test").bytes, "npm test");
  });
  await t.step("a long work record is deflated and reads back", () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i % 7}`)
      .join("\n");
    const body = encodeBody("tool-output", text);
    equal(body.compressed, true);
    ok(body.bytes instanceof Uint8Array);
    equal(decodeBodySync(body.bytes, true), text);
    // Its own bytes, not a view on zlib's 16 KiB output chunk, which a
    // worker's message would carry whole for each body.
    equal(body.bytes.buffer.byteLength, body.bytes.byteLength);
  });
  await t.step("bytes that are not deflated read as UTF-8", () => {
    equal(decodeBodySync(new TextEncoder().encode("héllo"), false), "héllo");
  });
});

Deno.test("keptCleanText() cleans only a long output's kept lines and their context", () => {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
  lines[500] = "Error: disk full";
  const raw = lines.join("\n");
  const seen: string[] = [];
  const kept = keptCleanText("tool-output", raw, (t) => {
    seen.push(t);
    return t.toUpperCase();
  });
  equal(seen.length, 1);
  // The 30 edge lines, the trouble line and three lines either side of each.
  ok(seen[0]!.length < raw.length / 10, `cleaned ${seen[0]!.length}`);
  ok(seen[0]!.includes("line 497") && !seen[0]!.includes("line 496\n"));
  equal(kept.excerpted, true);
  equal(kept.stored, keptText("tool-output", raw.toUpperCase()).stored);
});

Deno.test("keptCleanText() cleans the whole output when asked, or when cleaning changes the context's lines", () => {
  const raw = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
  const whole = keptCleanText("tool-output", raw, (t) => t, () => true);
  equal(whole.stored, keptText("tool-output", raw).stored);
  const sizes: number[] = [];
  const joined = keptCleanText("tool-output", raw, (t) => {
    sizes.push(t.length);
    return t.replace("line 1\nline 2", "line 1 2");
  });
  equal(sizes.length, 2);
  equal(sizes[1], raw.length);
  equal(
    joined.stored,
    keptText("tool-output", raw.replace("line 1\nline 2", "line 1 2")).stored,
  );
});
