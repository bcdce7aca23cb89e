/**
 * Sessions where the agent's own model call failed: the account ran out of
 * credit, the API key was refused, a quota or rate limit was hit, a local
 * model needed more memory than the machine had. People
 * remember these by what happened to them ("every message failed because my
 * credit had run dry", "it kept telling me to log in again"), while the
 * session holds the provider's words ("Insufficient Balance (APIError, HTTP
 * 402)", "Invalid API key · Please run /login"). This module reads the
 * question for such a failure and finds the sessions whose error output is
 * one of that kind.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  FLAG,
  RECORD_SLOTS,
  roleOfRecord,
  sessionOfRecord,
} from "../index/schema.ts";
import { recordOf, type RecordRow } from "./_rows.ts";
import { type ScopeFilter, sessionFilterSql } from "./_retrieve.ts";
import { prepared } from "./_statements.ts";
import type { DescribedSession } from "./_described.ts";

/** Kinds of model-call failure told apart. */
export type FailureKind = "billing" | "auth" | "rate" | "memory";

/** What the question must say for a kind, and what its output says. */
interface Family {
  /** Words of the question naming the kind. */
  cue: RegExp;
  /** An FTS5 expression finding candidate output records. */
  fts: string;
  /** What an output record of the kind says. */
  says: RegExp;
}

const FAMILIES: Readonly<Record<FailureKind, Family>> = {
  billing: {
    cue:
      /\b(?:credits?|balance|billing|payments?|paid|prepaid|top(?:ped)?[- ]?up|funds|out of money|402)\b/i,
    fts:
      `insufficient OR "credit balance" OR "payment required" OR 402 OR billing OR credits`,
    says:
      /insufficient[ _](?:balance|credits?|funds|quota)|credit balance|payment required|\b402\b|out of credits|billing/i,
  },
  auth: {
    cue:
      /\b(?:api[- ]?keys?|log(?:ged)?[- ]?(?:in|out)|login|credentials|creds|unauthori[sz]ed|401|authenticat\w*)\b/i,
    fts:
      `"api key" OR unauthorized OR unauthorised OR 401 OR login OR credentials OR authentication OR authenticationerror`,
    says:
      /invalid (?:x-)?api[ _-]?key|api[ _-]?key (?:is )?(?:not valid|invalid|missing)|incorrect api key|unauthori[sz]ed|\b401\b|\/login|credentials were not found|default credentials|authentication ?error|not logged in|login required/i,
  },
  rate: {
    cue:
      /\b(?:quotas?|rate[- ]?limit\w*|too many requests|429s?|overloaded|throttl\w*)\b/i,
    fts:
      `"rate limit" OR ratelimiterror OR quota OR 429 OR "too many requests" OR exhausted OR overloaded`,
    says:
      /rate[ _-]?limit|quota exceeded|exceeded your current quota|\b429\b|too many requests|resource[ _]exhausted|overloaded/i,
  },
  memory: {
    cue: /\b(?:v?ram|memory|oom)\b/i,
    fts:
      `"system memory" OR "out of memory" OR "requires more" OR oom OR "not enough memory" OR "insufficient memory"`,
    says:
      /requires more system memory|out of memory|not enough memory|insufficient memory|\bOOM\b/i,
  },
};

/** Words saying a call did not go through, beside a failure kind's name. */
const WENT_WRONG =
  /\b(?:fail\w*|errors?|erro?red|broke|broken|couldn'?t|could not|can'?t|cannot|wouldn'?t|never (?:answered|replied|responded|got|came)|no (?:answers?|reply|replies|response)|came back|ran out|run(?:ning)? out|r[au]n dry|dried up|refused|rejected|denied|blocked|died|stopped|empty|invalid|bad|wrong|not valid|expired|exceeded|hit|insufficient|left|throttl\w*|(?:told|telling|tells) me to|(?:wants?|wanted|needs?|needed|requires?|required|asked for) more)\b/i;

/**
 * Words putting the failure on the agent's side: its model, the chat, an
 * agent, a model provider by name or "the provider" (not a payment, auth,
 * cloud or other app-side one). "The figma API's rate limit" or "the
 * stripe account's API key" names none: a tool's or the project's API
 * failed, not the agent's model.
 */
const AGENT_SIDE =
  /\b(?:models?|assistant|agent|bot|llm|prompts?|messages?|chats?|threads?|repl(?:y|ies|ied)|answer\w*|claude|codex|gemini|aider|opencode|cursor|copilot|cline|kimi|qwen|amp|crush|goose|zed|deepseek|openrouter|vertex|anthropic|openai|ollama|sonnet|opus|gpt[\w.-]*|(?<!\b(?:payment|billing|auth|oauth|identity|login|sso|terraform|cloud|state|context|theme|email|sms|storage|dns|data)[\s-])providers?)\b/i;

/**
 * The kind of model-call failure a question describes, if it describes one:
 * the kind's words, words of something going wrong and words putting it on
 * the agent's side ("every message failed, my credit had run dry", "claude
 * told me to log in again", "hit the vertex quota in aider").
 *
 * @param ask The question's ask.
 * @returns The kind, or undefined.
 * @example
 * ```ts
 * import { failureAsked } from "./_agent_failures.ts";
 * import { equal } from "node:assert/strict";
 * equal(failureAsked("every message failed, the account had no credit left"), "billing");
 * equal(failureAsked("where do we store the user's credit card?"), undefined);
 * equal(failureAsked("one figma call came back with a 429 rate limit"), undefined);
 * ```
 */
export function failureAsked(ask: string): FailureKind | undefined {
  const text = ask.replaceAll("’", "'");
  // The kinds' short cues first: most questions name none, and the two
  // long expressions cost a fresh process more to compile.
  const kind = (["billing", "auth", "rate", "memory"] as const).find((k) =>
    FAMILIES[k].cue.test(text)
  );
  if (!kind || !WENT_WRONG.test(text) || !AGENT_SIDE.test(text)) {
    return undefined;
  }
  return kind;
}

/** How a failed model call is written when no tool name says it. */
const MODEL_CALL_ERROR =
  /\blitellm\.\w*Error|\bAPI_?Call_?Error\b|\bAPIError\b|\bAuthenticationError\b|\bRateLimitError\b|\bPermissionDeniedError\b/i;

/** Most candidate output records read. */
const CANDIDATES = 2000;

/**
 * The sessions, within the search's filters, holding an error output of a
 * model call of the kind asked: a record flagged as an error whose tool is
 * the model (`model`) or whose text names a model-call error class, and
 * whose words are that kind's. One full-text query joined to the filters
 * and a read of at most 2,000 of its newest records; only a question
 * describing such a failure pays it.
 *
 * @param db The index.
 * @param filter The search's session filters.
 * @param kind The kind of failure.
 * @returns Each such session, in no order.
 */
export async function failedSessions(
  db: Database,
  filter: ScopeFilter,
  kind: FailureKind,
): Promise<DescribedSession[]> {
  const family = FAMILIES[kind];
  const { where, params } = sessionFilterSql(filter);
  const hits = (prepared(
    db,
    `SELECT f.rowid AS rowid, s.rowid AS session, s.started, s.updated
     FROM fts_work f JOIN sessions s ON s.rowid = f.rowid / ${RECORD_SLOTS}
     WHERE fts_work MATCH ? AND ${where}
     ORDER BY f.rowid DESC LIMIT ${CANDIDATES}`,
  ).all(family.fts, ...params) as unknown as Array<
    DescribedSession & { rowid: number }
  >)
    .filter((h) => roleOfRecord(h.rowid) === "tool-output");
  if (hits.length === 0) return [];
  const rows = prepared(
    db,
    `SELECT r.* FROM json_each(?) AS w JOIN records r ON r.rowid = w.value
     WHERE (r.flags & ${FLAG.isError}) != 0`,
  ).all(JSON.stringify(hits.map((h) => h.rowid))) as unknown as RecordRow[];
  const failed = new Set<number>();
  for (const row of rows) {
    const session = sessionOfRecord(row.rowid);
    if (failed.has(session)) continue;
    const rec = await recordOf(row);
    if (rec.tool !== "model" && !MODEL_CALL_ERROR.test(rec.text)) continue;
    if (family.says.test(rec.text)) failed.add(session);
  }
  const out = new Map<number, DescribedSession>();
  for (const h of hits) {
    if (failed.has(h.session) && !out.has(h.session)) {
      out.set(h.session, {
        session: h.session,
        started: h.started,
        updated: h.updated,
      });
    }
  }
  return [...out.values()];
}
