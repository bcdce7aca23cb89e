/**
 * Regenerates the compressed Codex fixture rollout from its plain source:
 * `deno run --allow-read --allow-write tests/fixtures_gen/codex_zst.ts`.
 *
 * Codex compresses rollouts older than about a week to `.jsonl.zst`; the
 * fixture store keeps one such file so the `rollout-zst` kind is exercised.
 *
 * @module
 */
import { zstdCompressSync } from "node:zlib";

const ID = "019a0611-3f7d-7e62-8d19-c4b2a7e05f93";
const source = new URL(`./codex_rollout_${ID}.jsonl`, import.meta.url);
const target = new URL(
  `../../fixtures/home/.codex/sessions/2026/11/07/rollout-2026-11-07T16-05-00-${ID}.jsonl.zst`,
  import.meta.url,
);

if (import.meta.main) {
  const plain = await Deno.readFile(source);
  await Deno.mkdir(new URL(".", target), { recursive: true });
  await Deno.writeFile(target, zstdCompressSync(plain));
}
