import { deepEqual, equal, throws } from "node:assert/strict";
import { parseJsonWithComments, rewriteJson } from "./json_doc.ts";

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

Deno.test("rewriteJson() keeps every comment in place", async (t) => {
  const cases: Array<[string, string, unknown, string]> = [
    [
      "a line comment before a member",
      '{\n  // my theme\n  "theme": "Dracula"\n}\n',
      { theme: "Dracula", mcp: { deja: true } },
      '{\n  // my theme\n  "theme": "Dracula",\n  "mcp": {\n    "deja": true\n  }\n}\n',
    ],
    [
      "a block comment inside an object, beside a changed value",
      '{\n  /* colours */ "theme": "Dracula",\n  "size": /* pt */ 12\n}',
      { theme: "Light", size: 12 },
      '{\n  /* colours */ "theme": "Light",\n  "size": /* pt */ 12\n}',
    ],
    [
      "a comment after the last member on its line stays on that line",
      '{\n  "theme": "Dracula" // the best\n}\n',
      { theme: "Dracula", b: 1 },
      '{\n  "theme": "Dracula", // the best\n  "b": 1\n}\n',
    ],
    [
      "a comment on its own line after the last member: the added key follows it",
      '{\n  "theme": "Dracula"\n  // more later\n}\n',
      { theme: "Dracula", b: 1 },
      '{\n  "theme": "Dracula",\n  // more later\n  "b": 1\n}\n',
    ],
    [
      "a comment inside an array that gets an element added",
      '{"l": [\n  1, // one\n  2 /* two */\n]}',
      { l: [1, 2, 3] },
      '{"l": [\n  1, // one\n  2, /* two */\n  3\n]}',
    ],
    [
      "a one-line object ending in a line comment: the added key starts a line",
      '{"a": 1 // c\n}',
      { a: 1, b: 2 },
      '{"a": 1, // c\n  "b": 2\n}',
    ],
    [
      "an empty object holding only a comment",
      '{\n  "mcp": {\n    // none yet\n  }\n}',
      { mcp: { deja: true } },
      '{\n  "mcp": {\n    // none yet\n    "deja": true\n  }\n}',
    ],
    [
      "// and /* inside strings, and http:// URLs, are not comments",
      '{\n  "url": "http://example.com/*x*/", // site\n  "glob": "src/**/*.ts"\n}',
      { url: "https://example.com//", glob: "src/**/*.ts", b: "a//b" },
      '{\n  "url": "https://example.com//", // site\n  "glob": "src/**/*.ts",\n  "b": "a//b"\n}',
    ],
    [
      "a removed member leaves the comment above it",
      '{\n  "a": 1,\n  // about deja\n  "deja": 2,\n  "b": 3\n}',
      { a: 1, b: 3 },
      '{\n  "a": 1,\n  // about deja\n  "b": 3\n}',
    ],
    [
      "a removed first member leaves the comments above it and the next",
      '{\n  // head\n  "deja": 2,\n  // about b\n  "b": 3\n}',
      { b: 3 },
      '{\n  // head\n  // about b\n  "b": 3\n}',
    ],
    [
      "a removed last member leaves its line comment on the line before",
      '{\n  "a": 1,\n  "deja": 2 // ours\n}',
      { a: 1 },
      '{\n  "a": 1 // ours\n}',
    ],
    [
      "removing every member keeps the comments",
      '{"a": {\n  // c\n  "deja": 1\n}}',
      { a: {} },
      '{"a": {\n  // c\n}}',
    ],
    [
      "comments around the root value",
      '// settings\n{"a": 1}\n/* end */\n',
      { a: 1, b: 2 },
      '// settings\n{"a": 1, "b": 2}\n/* end */\n',
    ],
  ];
  for (const [name, before, next, after] of cases) {
    await t.step(name, () => equal(rewriteJson(before, next), after));
  }
});

Deno.test("rewriteJson() keeps a container's trailing comma after its last item", async (t) => {
  const cases: Array<[string, string, unknown, string]> = [
    [
      "a member added after a trailing comma gets one too",
      '{\n  // c\n  "$schema": "s",\n  "model": "x",\n}\n',
      { $schema: "s", model: "x", mcp: { deja: true } },
      '{\n  // c\n  "$schema": "s",\n  "model": "x",\n  "mcp": {\n    "deja": true\n  },\n}\n',
    ],
    [
      "an element appended to an array with a trailing comma",
      '{"l": [\n  1,\n  2,\n]}',
      { l: [1, 2, 3] },
      '{"l": [\n  1,\n  2,\n  3,\n]}',
    ],
    [
      "a removed last member leaves one trailing comma",
      '{\n  "a": 1,\n  "deja": 2,\n}',
      { a: 1 },
      '{\n  "a": 1,\n}',
    ],
    [
      "a removed middle member leaves the trailing comma alone",
      '{\n  "a": 1,\n  "deja": 2,\n  "b": 3,\n}',
      { a: 1, b: 3 },
      '{\n  "a": 1,\n  "b": 3,\n}',
    ],
    [
      "nested containers each keep their own style",
      '{\n  "mcp": {\n    "other": 1,\n  },\n  "l": [1],\n}',
      { mcp: { other: 1, deja: true }, l: [1, 2] },
      '{\n  "mcp": {\n    "other": 1,\n    "deja": true,\n  },\n  "l": [1, 2],\n}',
    ],
    [
      "a container without one gets none, though its file has some",
      '{\n  "a": [1,],\n  "b": 2\n}',
      { a: [1], b: 2, c: 3 },
      '{\n  "a": [1,],\n  "b": 2,\n  "c": 3\n}',
    ],
    [
      "a trailing comma before a comment line: the added member follows both",
      '{\n  "a": 1,\n  // more later\n}',
      { a: 1, b: 2 },
      '{\n  "a": 1,\n  // more later\n  "b": 2,\n}',
    ],
    [
      "a trailing comma before a comment on its line",
      '{\n  "a": 1, // one\n}',
      { a: 1, b: 2 },
      '{\n  "a": 1, // one\n  "b": 2,\n}',
    ],
    [
      "a one-line object",
      '{"a":1,}',
      { a: 1, b: 2 },
      '{"a":1,"b":2,}',
    ],
    [
      "a member removed from a one-line object",
      '{"a":1,"deja":2,}',
      { a: 1 },
      '{"a":1,}',
    ],
    [
      "a comma inside a string is text",
      '{"s": "a,}",}',
      { s: "a,}", t: [",]"] },
      '{"s": "a,}", "t": [",]"],}',
    ],
    [
      "a changed value inside keeps the comma where it was",
      '{"a": [1 /* c */ ,], "b": 1 ,}',
      { a: [1], b: 2 },
      '{"a": [1 /* c */ ,], "b": 2 ,}',
    ],
    [
      "removing every member leaves an empty object",
      '{"a": {"deja": 1,}}',
      { a: {} },
      '{"a": {}}',
    ],
  ];
  for (const [name, before, next, after] of cases) {
    await t.step(name, () => equal(rewriteJson(before, next), after));
  }
});

Deno.test("rewriteJson() takes an added member out again byte for byte, comments and commas and all", async (t) => {
  const texts = [
    '{\n  // my theme\n  "theme": "Dracula"\n}\n',
    '{\n  "theme": "Dracula" // the best\n}\n',
    '{\n  "theme": "Dracula"\n  // more later\n}\n',
    '{"a": 1 /* c */}',
    '{\n  // c\n  "$schema": "s",\n  "model": "x",\n}\n',
    '{\n  "theme": "Dracula", // the best\n}\n',
    '{\n  "theme": "Dracula",\n  // more later\n}\n',
    '{"a":1,}',
  ];
  for (const text of texts) {
    await t.step(JSON.stringify(text), () => {
      const old = parseJsonWithComments(text) as Record<string, unknown>;
      const added = rewriteJson(text, { ...old, deja: { hooks: [1] } });
      equal(rewriteJson(added, old), text);
    });
  }
});

Deno.test("parseJsonWithComments() reads comments as whitespace, never inside strings", () => {
  deepEqual(
    parseJsonWithComments(
      '/* a */ {"u": "http://x/*y*/", // b\n "v": [1 /* c */, 2]}',
    ),
    { u: "http://x/*y*/", v: [1, 2] },
  );
});

Deno.test("parseJsonWithComments() reads trailing commas as whitespace, never inside strings", () => {
  deepEqual(
    parseJsonWithComments('{"s": "a,}", "l": [1, [2,],], /* c */\n}'),
    { s: "a,}", l: [1, [2]] },
  );
});

Deno.test("rewriteJson() refuses text that is not JSON, comments and trailing commas aside", async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ["broken", "{bad", /JSON/],
    [
      "an unterminated block comment",
      '{\n  "a": 1 /* open\n}',
      /^Unterminated comment at line 2 column 10$/,
    ],
    [
      "a double comma",
      '{"a":1,,}',
      /^Unexpected comma at line 1 column 8: no value before it$/,
    ],
    [
      "a comma in an empty array",
      '{\n  // c\n  "a": [,],\n}',
      /^Unexpected comma at line 3 column 9: no value before it$/,
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      throws(
        () => rewriteJson(text, { a: 2 }),
        (err) => err instanceof SyntaxError && message.test(err.message),
      );
    });
  }
});
