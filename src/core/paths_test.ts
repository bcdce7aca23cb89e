import { equal } from "node:assert/strict";
import { indexPath, memoryPath } from "./paths.ts";
import { dejaConfigDir } from "../install/launcher.ts";

Deno.test("a relative XDG base directory is ignored, as the XDG spec says", () => {
  const env = {
    HOME: "/home/ada",
    XDG_CACHE_HOME: "cache",
    XDG_DATA_HOME: "./data",
    XDG_CONFIG_HOME: "config",
  };
  equal(indexPath(env), "/home/ada/.cache/deja/index.db");
  equal(memoryPath(env), "/home/ada/.local/share/deja/memory.db");
  equal(dejaConfigDir("/home/ada", env), "/home/ada/.config/deja");
});

Deno.test("an absolute XDG base directory is used, Windows forms too", () => {
  equal(
    indexPath({ HOME: "/h", XDG_CACHE_HOME: "/var/cache/ada" }),
    "/var/cache/ada/deja/index.db",
  );
  equal(
    memoryPath({ USERPROFILE: "C:\\Users\\ada", XDG_DATA_HOME: "D:\\data" }),
    "D:\\data/deja/memory.db",
  );
  // DEJA_INDEX and DEJA_DB are taken as given.
  equal(indexPath({ DEJA_INDEX: "idx.db", XDG_CACHE_HOME: "/c" }), "idx.db");
});
