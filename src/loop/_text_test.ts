import { equal } from "node:assert/strict";
import { errorSignature, foldValue, jaccard, tokenSet } from "./_text.ts";

Deno.test("errorSignature() normalises paths, numbers and ids", async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ error: "rate_limited" }, "rate_limited"],
    ['{"error":"Rate_Limited"}', "rate_limited"],
    [
      "ENOENT: no such file /tmp/run101/out-1.txt (errno 3)",
      "enoent: no such file <path> (errno #)",
    ],
    [
      "ENOENT: no such file /tmp/run102/out-2.txt (errno 4)",
      "enoent: no such file <path> (errno #)",
    ],
    [{ error: { message: "request 9f3a2b1c7d failed" } }, "request # failed"],
    ["failed for C:\\Users\\x\\a.txt", "failed for <path>"],
    [{ ok: true }, '{"ok":true}'],
    [undefined, ""],
    ["x".repeat(200), "x".repeat(80)],
  ];
  for (const [input, want] of cases) {
    await t.step(
      String(JSON.stringify(input)).slice(0, 40),
      () => equal(errorSignature(input), want),
    );
  }
});

Deno.test("jaccard() compares token sets", () => {
  equal(jaccard(tokenSet("a b c"), tokenSet("A, b; c.")), 1);
  equal(jaccard(tokenSet("a b"), tokenSet("b c")), 1 / 3);
  equal(jaccard(new Set(), new Set()), 1);
});

Deno.test("foldValue() ignores punctuation and case but keeps number boundaries", () => {
  equal(foldValue("us-east-1"), foldValue("US East 1"));
  equal(foldValue("1.2") === foldValue("12"), false);
});
