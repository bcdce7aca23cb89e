/**
 * Lays the real transcript samples (`../shared/samples`, one folder per
 * harness) out in a temp HOME where each harness looks for its files, so
 * the real indexer discovers them as it would on a person's machine. The
 * files are copied (SQLite stores must not be opened in place) and never
 * leave the temp directory.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { SAMPLES } from "../../../src/sources/_test_kit.ts";

/**
 * The samples folder (`$DEJA_SAMPLES`, else beside the repo), or undefined
 * when it is absent.
 */
export function samplesDir(): string | undefined {
  return existsSync(`${SAMPLES}/PROVENANCE.md`) ? SAMPLES : undefined;
}

/** Where each sample folder goes under HOME: [from (in samples), to (in HOME)]. */
const PLACES: ReadonlyArray<readonly [string, string]> = [
  ["claude-code/devcontainer-dhw/projects", ".claude/projects"],
  ["claude-code/dotfiles-acodu/projects", ".claude/projects"],
  // The spotter fixtures sit loose; give them a project folder of their own.
  ["claude-code/spotter", ".claude/projects/-home-dev-spotter"],
  ["codex/code-butler", ".codex"],
  ["codex/lotto645", ".codex"],
  ["gemini/metaphi-figma-eval", ".gemini"],
  ["opencode/saintcyberwarrior-dotfiles", ".local/share/opencode"],
  [
    "cursor/cursor-history-workspace",
    ".config/Cursor/User/workspaceStorage/0a1b2c3d4e5f",
  ],
  ["aider/monochromatic", "code/monochromatic"],
  ["aider/trading-bot", "code/trading-bot"],
  ["copilot/poule_v2", ".copilot"],
  [
    "cline/cline-xray/task_sample",
    ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1760000000001",
  ],
  [
    "cline/cline-xray/ui_messages.json",
    ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1760000000002/ui_messages.json",
  ],
  ["kimi/ihhashi", ".kimi"],
  ["qwen/cloudschool", ".qwen"],
  ["goose/jwp23-dotfiles", ".local/share/goose"],
  ["amp/club-dashboard", ".local/share/amp"],
  ["crush/chex-mix-timer", "code/chex-mix-timer"],
  ["zed/atlasata-dotfiles", ".local/share/zed"],
];

function copyTree(from: string, to: string, skip?: string): void {
  const info = Deno.statSync(from);
  if (info.isFile) {
    Deno.mkdirSync(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    Deno.copyFileSync(from, to);
    return;
  }
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    const path = `${from}/${entry.name}`;
    if (path === skip) continue;
    copyTree(path, `${to}/${entry.name}`, skip);
  }
}

/**
 * Copies every sample into `home` at its harness's default location.
 *
 * @param samples The samples folder.
 * @param home An empty temp HOME.
 * @returns The number of places laid out.
 */
export function layOutSamples(samples: string, home: string): number {
  let n = 0;
  for (const [from, to] of PLACES) {
    const src = `${samples}/${from}`;
    if (!existsSync(src)) continue;
    // The Cline task sample lives inside the other Cline folder's parent.
    copyTree(src, `${home}/${to}`, `${samples}/cline/cline-xray/task_sample`);
    n++;
  }
  return n;
}

/**
 * Copies a ready HOME (an eval's bundled one) into `home`, beside what is
 * there: the sessions of another eval become distractors.
 *
 * @param from The HOME to copy.
 * @param home The temp HOME it joins.
 */
export function layOutHome(from: string, home: string): void {
  copyTree(from, home);
}
