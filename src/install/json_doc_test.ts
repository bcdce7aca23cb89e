import { equal, throws } from "node:assert/strict";
import { rewriteJson } from "./json_doc.ts";

Deno.test("rewriteJson() touches only the text of what changed", async (t) => {
  const cases: Array<[string, string, unknown, string]> = [
    [
      "a member added to a multi-line object goes on its own line",
      '{\n  "a": [1, 2],\n  "b": {"x": 1}\n}\n',
      { a: [1, 2], b: { x: 1 }, c: { y: [true] } },
      '{\n  "a": [1, 2],\n  "b": {"x": 1},\n  "c": {\n    "y": [\n      true\n    ]\n  }\n}\n',
    ],
    [
      "a member added to a one-line object stays inline and compact",
      '{\n  "b": {"x": 1}\n}',
      { b: { x: 1, y: { z: [1] } } },
      '{\n  "b": {"x": 1, "y": {"z": [1]}}\n}',
    ],
    [
      "a minified file keeps its separators",
      '{"a":{"x":1}}',
      { a: { x: 1, y: [1, 2] } },
      '{"a":{"x":1,"y":[1,2]}}',
    ],
    [
      "an empty object in a multi-line file opens one level deeper",
      '{\n\t"hooks": {}\n}\n',
      { hooks: { E: [1] } },
      '{\n\t"hooks": {\n\t\t"E": [\n\t\t\t1\n\t\t]\n\t}\n}\n',
    ],
    [
      "CRLF stays CRLF",
      '{\r\n  "a": 1\r\n}\r\n',
      { a: 1, b: { c: 2 } },
      '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": 2\r\n  }\r\n}\r\n',
    ],
    [
      "deleting the first, a middle and the last member",
      '{\n  "a": 1,\n  "b": 2,\n  "c": 3,\n  "d": 4,\n  "e": 5\n}\n',
      { b: 2, d: 4 },
      '{\n  "b": 2,\n  "d": 4\n}\n',
    ],
    [
      "deleting the last member of a one-line object",
      '{"a": {"x": 1, "y": 2}}',
      { a: { x: 1 } },
      '{"a": {"x": 1}}',
    ],
    [
      "deleting every member leaves an empty object",
      '{\n  "a": {\n    "x": 1\n  }\n}\n',
      { a: {} },
      '{\n  "a": {}\n}\n',
    ],
    [
      "array elements removed and appended; a changed one keeps its layout",
      '{"l": [\n  {"k": [1, 2]},\n  "drop",\n  3\n]}',
      { l: [{ k: [1] }, 3, "new"] },
      '{"l": [\n  {"k": [1]},\n  3,\n  "new"\n]}',
    ],
    [
      "numeric-looking keys keep their order",
      '{"b": 1, "10": 2, "2": 3}',
      { b: 4, 10: 2, 2: 3 },
      '{"b": 4, "10": 2, "2": 3}',
    ],
    [
      "a repeated key: the last one (the one JSON.parse reads) is edited",
      '{"a": 1, "a": 2}',
      { a: 5 },
      '{"a": 1, "a": 5}',
    ],
    [
      "a value of another type is written in the style around it",
      '{\n  "a": 1\n}',
      { a: { b: 2 } },
      '{\n  "a": {\n    "b": 2\n  }\n}',
    ],
    [
      "no change gives the same bytes",
      ' {"a" : [ 1 ,2 ]}  \n\n',
      { a: [1, 2] },
      ' {"a" : [ 1 ,2 ]}  \n\n',
    ],
  ];
  for (const [name, before, next, after] of cases) {
    await t.step(name, () => equal(rewriteJson(before, next), after));
  }
});

Deno.test("rewriteJson() writes a missing or blank file indented by two spaces", () => {
  const doc = { a: { b: [1, 2] }, c: {} };
  const pretty = `${JSON.stringify(doc, null, 2)}\n`;
  equal(rewriteJson(undefined, doc), pretty);
  equal(rewriteJson("", doc), pretty);
  equal(rewriteJson(" \n", doc), pretty);
});

Deno.test("rewriteJson() refuses text that is not JSON", () => {
  throws(() => rewriteJson('{\n  // c\n  "a": 1\n}', { a: 2 }), SyntaxError);
});
