/**
 * Every harness deja reads, in priority order. Adding a harness means one
 * parser module and one entry here; discovery, incremental indexing and
 * `deja sources` read from this list.
 *
 * @module
 */
import type { Harness } from "../core/harness.ts";
import { claudeCode } from "./claude_code.ts";
import { codex } from "./codex.ts";
import { crush } from "./crush.ts";
import { zed } from "./zed.ts";
import { goose } from "./goose.ts";
import { gemini } from "./gemini.ts";
import { copilotCli } from "./copilot_cli.ts";
import { copilotChat } from "./copilot_chat.ts";
import { kimi } from "./kimi.ts";
import { pi } from "./pi.ts";
import { qwen } from "./qwen.ts";
import { amp } from "./amp.ts";
import { aider } from "./aider.ts";
import { cline } from "./cline.ts";
import { roo } from "./roo.ts";
import { kilo } from "./kilo.ts";
import { continueDev } from "./continue.ts";
import { deepseek } from "./deepseek.ts";
import { intendant } from "./intendant.ts";
import { opencode } from "./opencode.ts";
import { cursor } from "./cursor.ts";
import { grok } from "./grok.ts";
import { openclaw } from "./openclaw.ts";
import { omp } from "./omp.ts";
import { junie } from "./junie.ts";
import { kiro } from "./kiro.ts";
import { windsurf } from "./windsurf.ts";
import { hermes } from "./hermes.ts";
import { antigravity } from "./antigravity.ts";

/** The registered harnesses. */
export const HARNESSES: readonly Harness[] = [
  claudeCode,
  codex,
  gemini,
  opencode,
  cursor,
  aider,
  copilotCli,
  copilotChat,
  cline,
  roo,
  kilo,
  continueDev,
  kimi,
  pi,
  qwen,
  goose,
  amp,
  zed,
  crush,
  deepseek,
  intendant,
  grok,
  openclaw,
  omp,
  junie,
  kiro,
  windsurf,
  hermes,
  antigravity,
];
