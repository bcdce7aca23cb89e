import { deepEqual } from "node:assert/strict";
import { projectDirs } from "./_project_dirs.ts";

async function tree(paths: string[]): Promise<string> {
  const home = await Deno.makeTempDir();
  for (const p of paths) await Deno.mkdir(`${home}/${p}`, { recursive: true });
  return home;
}

Deno.test("projectDirs() lists the project folders and their sub-directories in order", async () => {
  const home = await tree([
    "code/b",
    "code/a/pkg",
    "Documents/notes",
    "elsewhere/proj",
  ]);
  const dirs = projectDirs({ home, env: {}, os: "linux" });
  deepEqual(dirs.map((d) => d.slice(home.length + 1)), [
    "code",
    "code/a",
    "code/a/pkg",
    "code/b",
    "Documents",
    "Documents/notes",
  ]);
});

Deno.test("projectDirs() skips hidden and dependency folders and stops at maxDepth", async () => {
  const home = await tree([
    "src/app/.git/objects",
    "src/app/node_modules/x",
    "src/app/l2/l3/l4",
  ]);
  const dirs = projectDirs({ home, env: {}, os: "linux" });
  deepEqual(dirs.map((d) => d.slice(home.length + 1)), [
    "src",
    "src/app",
    "src/app/l2",
    "src/app/l2/l3",
  ]);
  const shallow = projectDirs({ home, env: {}, os: "linux" }, { maxDepth: 1 });
  deepEqual(shallow.map((d) => d.slice(home.length + 1)), ["src", "src/app"]);
});

Deno.test("projectDirs() does not follow symlinks and respects maxDirs", async () => {
  const home = await tree(["repos/a", "repos/b", "real/c"]);
  await Deno.symlink(`${home}/real`, `${home}/repos/link`);
  await Deno.symlink(`${home}/real`, `${home}/work`);
  const dirs = projectDirs({ home, env: {}, os: "linux" });
  deepEqual(dirs.map((d) => d.slice(home.length + 1)), [
    "repos",
    "repos/a",
    "repos/b",
  ]);
  const capped = projectDirs({ home, env: {}, os: "linux" }, { maxDirs: 2 });
  deepEqual(capped.length, 2);
});

Deno.test("projectDirs() lists nothing for a missing HOME", () => {
  const dirs = projectDirs({
    home: "/nonexistent/deja-home",
    env: {},
    os: "linux",
  });
  deepEqual(dirs, []);
});

Deno.test("projectDirs() finds project folders in any case, and the folders IDEs and habits name", async () => {
  const home = await tree([
    "Projects/zebra-app",
    "workspace/ferret-ui",
    "IdeaProjects/heron",
    "source/repos/tapir",
    "Documents/GitHub/okapi",
    "code/ferrum",
    "Pictures/cats",
  ]);
  const dirs = projectDirs({ home, env: {}, os: "linux" }, { maxDepth: 1 });
  deepEqual(dirs.map((d) => d.slice(home.length + 1)), [
    "code",
    "code/ferrum",
    "Projects",
    "Projects/zebra-app",
    "workspace",
    "workspace/ferret-ui",
    "source",
    "source/repos",
    "IdeaProjects",
    "IdeaProjects/heron",
    "Documents",
    "Documents/GitHub",
  ]);
});
