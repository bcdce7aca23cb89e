import { deepEqual } from "node:assert/strict";
import { walkFiles } from "./harness.ts";

const jsonl = (p: string) => p.endsWith(".jsonl");

Deno.test("walkFiles lists depth-first, each folder's entries sorted", () => {
  const root = Deno.makeTempDirSync();
  try {
    for (const d of ["b", "a", "a/z"]) Deno.mkdirSync(`${root}/${d}`);
    for (const f of ["b/1.jsonl", "a/2.jsonl", "a/z/3.jsonl", "0.jsonl"]) {
      Deno.writeTextFileSync(`${root}/${f}`, "{}");
    }
    deepEqual(walkFiles(root, jsonl), [
      `${root}/0.jsonl`,
      `${root}/a/2.jsonl`,
      `${root}/a/z/3.jsonl`,
      `${root}/b/1.jsonl`,
    ]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("walkFiles follows a link out of the tree, once, and never back into it", () => {
  const home = Deno.makeTempDirSync();
  try {
    const root = `${home}/projects`;
    Deno.mkdirSync(`${root}/-home-dev-x`, { recursive: true });
    Deno.mkdirSync(`${home}/disk/-home-dev-proj`, { recursive: true });
    Deno.mkdirSync(`${home}/loose`);
    Deno.writeTextFileSync(`${home}/disk/-home-dev-proj/s1.jsonl`, "{}");
    Deno.writeTextFileSync(`${home}/loose/s2.jsonl`, "{}");
    // A project folder kept elsewhere, and a second link to the same place.
    Deno.symlinkSync(`${home}/disk/-home-dev-proj`, `${root}/-home-dev-proj`);
    Deno.symlinkSync(`${home}/disk/-home-dev-proj`, `${root}/zz-again`);
    // A file kept elsewhere, and a second link to it.
    Deno.symlinkSync(`${home}/loose/s2.jsonl`, `${root}/-home-dev-x/s2.jsonl`);
    Deno.symlinkSync(`${home}/loose/s2.jsonl`, `${root}/-home-dev-x/s3.jsonl`);
    // Loops: the tree itself, and a folder that holds it.
    Deno.symlinkSync(root, `${root}/-home-dev-x/loop`);
    Deno.symlinkSync(home, `${root}/-home-dev-x/home`);
    // A link into the tree lists nothing the tree does not already list.
    Deno.symlinkSync(`${root}/-home-dev-x`, `${root}/inner`);
    Deno.symlinkSync(`${home}/nowhere`, `${root}/dangling.jsonl`);
    deepEqual(walkFiles(root, jsonl), [
      `${root}/-home-dev-proj/s1.jsonl`,
      `${root}/-home-dev-x/s2.jsonl`,
    ]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
