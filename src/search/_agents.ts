/**
 * The agent a question names ("what did codex change in the parser?"): the
 * harness ids it means and the query with the name taken out, so search
 * can look in that agent's sessions first.
 *
 * @module
 */
import { ownValue } from "../core/lookup.ts";

/**
 * Names that stand for a harness wherever they appear: no English or
 * programming word shares them.
 */
const DISTINCT: Readonly<Record<string, readonly string[]>> = {
  claude: ["claude-code"],
  codex: ["codex"],
  gemini: ["gemini"],
  opencode: ["opencode"],
  aider: ["aider"],
  copilot: ["copilot-cli", "copilot-chat"],
  cline: ["cline"],
  kilo: ["kilo"],
  kimi: ["kimi"],
  qwen: ["qwen"],
  zed: ["zed"],
  deepseek: ["deepseek"],
  grok: ["grok"],
  openclaw: ["openclaw"],
  junie: ["junie"],
  kiro: ["kiro"],
  intendant: ["intendant"],
};

/**
 * Names that are also ordinary words (a database cursor, to continue):
 * they stand for a harness only where the query speaks of an agent —
 * "in cursor", "cursor said", "cursor's", "with goose".
 */
const AMBIGUOUS: Readonly<Record<string, readonly string[]>> = {
  cursor: ["cursor"],
  goose: ["goose"],
  crush: ["crush"],
  amp: ["amp"],
  roo: ["roo"],
  continue: ["continue"],
};

const BEFORE =
  /\b(?:in|into|with|from|by|using|asked|ask|asking|told|tell|telling)\s+$/i;
const AFTER =
  /^(?:'s\b|\s+(?:did|do|does|said|say|says|suggested|proposed|wrote|changed|made|fixed|ran|tried|decided|session|sessions|agent|cli|run|runs|thread|threads|conversation|conversations)\b|\s+chats?(?=\s*(?:$|[?!.,;:)]|\s+(?:about|where|when|that|which|in|on|from|with|for|i|we|yesterday|today|last|earlier|was|were|is|had|did|got)\b)))/i;

/**
 * An article or possessive before a name makes it a thing of the project
 * ("the copilot chat page", "our claude api key") unless an agent word
 * follows ("the codex session").
 */
const DETERMINER = /\b(?:the|a|an|our|my|your|their|this|that|its)\s+$/i;

/**
 * A part of an app or a library after a name makes the name the thing's
 * ("copilot chat page in the ionic app", "gemini api calls", "claude sdk
 * client"): the project built it; no agent did the work. So does a format
 * ("written in Claude Code's format" for another agent's files).
 */
const THING_AFTER =
  /^(?:['’]s)?(?:\s+(?:chat|code|cli))?\s+(?:page|screen|component|module|template|route|endpoint|service|api|sdk|client|integration|widget|button|icon|format|syntax|schema|frontmatter)s?\b/i;

/**
 * A part of a screen right after a name, no possessive between ("copilot
 * messages in E2F0FF", "the copilot bubbles", "cursor sidebar"): a thing
 * on the app's screen. "Claude's messages" are still the agent's.
 */
const SCREEN_PART_AFTER =
  /^\s+(?:messages?|bubbles?|panels?|windows?|sidebars?|tabs?|menus?|dialogs?|modals?|views?|themes?|toolbars?|popups?)\b/i;

/**
 * A model's name after its maker's ("Claude Sonnet 4", "gemini 2.5 pro",
 * "from qwen 3") names the model a session used, not the agent that ran it.
 */
const MODEL_AFTER =
  /^[\s-]*(?:sonnet|opus|haiku|flash|pro\b|reasoner|coder|[rv]?\d)/i;
/**
 * A service that hosts models: beside it a maker's name is the model it
 * served ("the vertex quota hit for claude", "gemini through openrouter").
 */
const MODEL_HOST =
  /\b(?:vertex(?: ai)?|bedrock|openrouter|azure openai|litellm|ollama|groq|together ai|fireworks)\b/i;

/** Words before a model's name saying an agent ran it. */
const SERVED_WITH = /\b(?:with|using|via|through|running|on)\s+$/i;

/** Agents named after the models they run. */
const MODEL_MAKERS = new Set([
  "claude",
  "gemini",
  "qwen",
  "kimi",
  "grok",
  "deepseek",
]);

/** What {@linkcode agentNamed} found. */
export interface AgentMention {
  /** Harness ids the name stands for. */
  harnesses: string[];
  /** The query with the name taken out. */
  rest: string;
}

/**
 * Finds the agent a query names (none when it names two).
 *
 * @param query The query as typed.
 * @returns The harnesses and the query without the name, or undefined.
 * @example
 * ```ts
 * import { agentNamed } from "./_agents.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(agentNamed("what did zed do about the database?"), {
 *   harnesses: ["zed"],
 *   rest: "what did do about the database?",
 * });
 * ```
 */
export function agentNamed(query: string): AgentMention | undefined {
  // "claude code" and "qwen code" are one name each; "Claude Code's" a
  // possessive.
  const words = /\b((?:claude|qwen)[ -]code|[a-z]+)\b/gi;
  let named: Array<AgentMention & { cued: boolean; served: boolean }> = [];
  for (const m of query.matchAll(words)) {
    const word = m[1]!.toLowerCase().replace(/[ -]code$/, "");
    // Only an agent's name goes on; the expressions below cost a fresh
    // process ~0.5 ms to compile, and most queries name no agent.
    const distinct = ownValue(DISTINCT, word);
    if (!distinct && !ownValue(AMBIGUOUS, word)) continue;
    const before = query.slice(0, m.index);
    const after = query.slice(m.index + m[0].length);
    // A part of a path, a file name or an identifier names no agent
    // (src/app/copilot/copilot.page.html, codex_config).
    if (
      /[\w/\\.-]$/.test(before) || /^(?:[/\\_]|\.\w|-(?!cli\b)\w)/i.test(after)
    ) continue;
    if (THING_AFTER.test(after) || SCREEN_PART_AFTER.test(after)) continue;
    const cued = BEFORE.test(before) || AFTER.test(after);
    if (
      MODEL_MAKERS.has(word) &&
      (MODEL_AFTER.test(after) || MODEL_HOST.test(query))
    ) continue;
    const ids = distinct && (cued || !DETERMINER.test(before))
      ? distinct
      : cued
      ? ownValue(AMBIGUOUS, word)
      : undefined;
    if (!ids) continue;
    // Lines stay lines: the ask of a prompt is found by them.
    const rest = `${before}${after.replace(/^'s\b/i, "")}`
      .replace(/[^\S\n]+/g, " ").trim();
    const served = MODEL_MAKERS.has(word) && SERVED_WITH.test(before);
    named.push({ harnesses: [...ids], rest, cued, served });
  }
  // Beside another agent, a maker's name after "with" or "using" is the
  // model that agent ran ("opencode errors on every prompt with deepseek").
  if (new Set(named.map((n) => n.harnesses[0])).size > 1) {
    named = named.filter((n) => !n.served);
  }
  const agents = new Set(named.map((n) => n.harnesses[0]));
  if (agents.size === 1) return strip(named[0]!);
  // Two agents named ("convert the claude agents to the qwen format"): the
  // query is about them, not asking what one of them did — unless only one
  // is spoken of as the agent ("what did deepseek return in the opencode
  // session": a model, then the agent).
  const cued = named.filter((n) => n.cued);
  return new Set(cued.map((n) => n.harnesses[0])).size === 1
    ? strip(cued[0]!)
    : undefined;
}

function strip(n: AgentMention): AgentMention {
  return { harnesses: n.harnesses, rest: n.rest };
}
