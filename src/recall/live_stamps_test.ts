import { deepEqual, equal, ok } from "node:assert/strict";
import {
  dropLive,
  LIVE_WINDOW_MS,
  liveSessionIds,
  readLiveFile,
  stampLive,
} from "./live_stamps.ts";

async function livePathIn(): Promise<string> {
  return `${await Deno.makeTempDir()}/cache/index.db.live`;
}

Deno.test("stampLive() keeps a session out of recall for 20 minutes", async () => {
  const path = await livePathIn();
  ok(stampLive(path, "s1", { now: 1_000_000, harness: "claude-code" }));
  ok(liveSessionIds(path, 1_000_000 + LIVE_WINDOW_MS - 1).has("s1"));
  equal(liveSessionIds(path, 1_000_000 + LIVE_WINDOW_MS).has("s1"), false);
  equal(readLiveFile(path).sessions.s1?.harness, "claude-code");
});

Deno.test("dropLive() ends the stamp but keeps the cooldowns", async () => {
  const path = await livePathIn();
  stampLive(path, "s1", {
    now: 5_000,
    update: (e) => void (e.asked = { h: 5_000 }),
  });
  dropLive(path, "s1", 6_000);
  equal(liveSessionIds(path, 7_000).size, 0);
  deepEqual(readLiveFile(path).sessions.s1?.asked, { h: 5_000 });
});

Deno.test("stampLive() prunes sessions untouched for two hours", async () => {
  const path = await livePathIn();
  stampLive(path, "old", { now: 0 });
  stampLive(path, "new", { now: 3 * 60 * 60_000 });
  deepEqual(Object.keys(readLiveFile(path).sessions), ["new"]);
});

Deno.test("readLiveFile() reads a torn file as empty", async () => {
  const path = await livePathIn();
  await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
  await Deno.writeTextFile(path, '{"v":1,"sessions":{"s1":{"at":');
  deepEqual(readLiveFile(path), { v: 1, sessions: {} });
  ok(stampLive(path, "s2", { now: 1 }));
});
