import { deepEqual, equal } from "node:assert/strict";
import { cjkBigrams, identifierParts, postingTokens } from "./tokens.ts";

Deno.test("postingTokens() posts CJK as bigrams and identifiers with their parts", async (t) => {
  const cases: Array<[string, string]> = [
    ["plain words stay", "plain words stay"],
    ["数据库连接池", "数据 据库 库连 连接 接池"],
    ["用redis缓存", "用 redis 缓存"],
    [
      "call getUserProfile twice, getUserProfile",
      "call getUserProfile twice, getUserProfile\nget user profile",
    ],
    ["データベース", "デー ータ タベ ベー ース"],
  ];
  for (const [text, want] of cases) {
    await t.step(text, () => equal(postingTokens(text), want));
  }
});

Deno.test("identifierParts() splits camel humps and acronyms", () => {
  deepEqual(identifierParts("JSONDataLoader"), ["json", "data", "loader"]);
  deepEqual(identifierParts("useEffect"), ["use", "effect"]);
  equal(identifierParts("iPhone"), undefined);
  equal(identifierParts("lowercase"), undefined);
});

Deno.test("cjkBigrams() keeps a single character whole", () => {
  deepEqual(cjkBigrams("池"), ["池"]);
});
