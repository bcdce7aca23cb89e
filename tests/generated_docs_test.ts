import { equal } from "node:assert/strict";
import { renderCli, renderErrors, renderHarnesses } from "./generated_docs.ts";

const docs = new URL("../docs/", import.meta.url);

Deno.test("docs/errors.md is generated from the error codes", async () => {
  equal(await Deno.readTextFile(new URL("errors.md", docs)), renderErrors());
});

Deno.test("docs/harnesses.md is generated from the registry", async () => {
  equal(
    await Deno.readTextFile(new URL("harnesses.md", docs)),
    renderHarnesses(),
  );
});

Deno.test("docs/cli.md is generated from the commands' help", async () => {
  equal(await Deno.readTextFile(new URL("cli.md", docs)), await renderCli());
});
