import { equal, ok, throws } from "node:assert/strict";
import { addCodexToml, removeCodexToml } from "./codex_toml.ts";
import { readToml } from "./toml_doc.ts";

const L = "/home/me/.config/deja/bin/deja-hook";

Deno.test("readToml() locates tables and keys, multi-line values included", () => {
  const text =
    'a = 1\n[t]\nlist = [\n  "x",\n  "y",\n]\ns = """\n[not a table]\n"""\n[u."q.r"]\nk = { x = 1 } # c\n';
  const tables = readToml(text);
  equal(tables.map((t) => t.name).join("|"), "|t|u.q.r");
  equal(tables[1]?.keys.map((k) => k.key).join(","), "list,s");
  equal(tables[2]?.keys[0]?.value, "{ x = 1 }");
  equal(
    text.slice(tables[1]!.start, tables[1]!.end),
    '[t]\nlist = [\n  "x",\n  "y",\n]\ns = """\n[not a table]\n"""\n',
  );
});

Deno.test("addCodexToml() then removeCodexToml() round-trips byte for byte", async (t) => {
  const cases: Array<[string, string]> = [
    ["empty file", ""],
    ["no trailing newline", 'model = "o3"'],
    ["flag off", 'model = "o3"\n\n[features]\ncodex_hooks = false\n'],
    [
      "features without the flag, more tables after",
      '[features]\nweb_search_request = true\n\n[profiles.fast]\nmodel = "mini"\n',
    ],
    ["dotted flag at the root", 'features.codex_hooks = false\nmodel = "o3"\n'],
    ["features table last, no newline", "[features]\nother = 1"],
  ];
  for (const [name, before] of cases) {
    await t.step(name, () => {
      const { text, record } = addCodexToml(before, L);
      ok(text.includes("[mcp_servers.deja]"));
      ok(/codex_hooks = true/.test(text));
      equal(addCodexToml(text, L).text, text, "idempotent");
      equal(removeCodexToml(text, record, L), before);
    });
  }
});

Deno.test("addCodexToml() leaves a flag that is already on alone", () => {
  const before = "[features]\ncodex_hooks = true\n";
  const { text, record } = addCodexToml(before, L);
  equal(record.flag, undefined);
  equal(removeCodexToml(text, record, L), before);
});

Deno.test("addCodexToml() refuses a foreign mcp_servers.deja", () => {
  throws(
    () => addCodexToml('[mcp_servers.deja]\ncommand = "/usr/bin/other"\n', L),
    /does not call the deja launcher/,
  );
});

Deno.test("removeCodexToml() without a record removes deja's table only", () => {
  const text =
    '[mcp_servers.docs]\ncommand = "npx"\n\n[mcp_servers.deja]\ncommand = "' +
    L + '"\nargs = ["mcp"]\n';
  equal(
    removeCodexToml(text, undefined, L),
    '[mcp_servers.docs]\ncommand = "npx"\n\n',
  );
});

Deno.test("removeCodexToml() keeps the [features] table install made when the user has added to it", () => {
  const before = 'model = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
  const { text, record } = addCodexToml(before, "/l");
  const after = removeCodexToml(
    `${text}web_search_request = true\n`,
    record,
    "/l",
  );
  equal(
    after,
    'model = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n\n[features]\nweb_search_request = true\n',
  );
});
