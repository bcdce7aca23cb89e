import { deepEqual, equal, ok } from "node:assert/strict";
import { foldText, matchBytes, snippetAround } from "./_fold.ts";
import { parseSearchQuery, windowStart } from "./message_search.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const slice = (text: string, [a, b]: [number, number]) =>
  dec.decode(enc.encode(text).subarray(a, b));

Deno.test("matchBytes() folds case and canonical forms and answers byte offsets", async (t) => {
  const cases: Array<
    { name: string; text: string; needle: string; want: string[] }
  > = [
    {
      name: "ascii case",
      text: "Fix the Retry loop",
      needle: "retry",
      want: ["Retry"],
    },
    {
      name: "precomposed text, decomposed needle",
      text: "Un café noir",
      needle: "cafe\u0301",
      want: ["café"],
    },
    {
      name: "decomposed text, precomposed needle",
      text: "Un cafe\u0301 noir",
      needle: "CAFÉ",
      want: ["cafe\u0301"],
    },
    {
      name: "after multi-byte characters",
      text: "🚀 déploiement Über alles",
      needle: "über",
      want: ["Über"],
    },
    {
      name: "every occurrence",
      text: "port 80, Port 443, PORT",
      needle: "port",
      want: ["port", "Port", "PORT"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const ranges = matchBytes(c.text, [foldText(c.needle)]);
      deepEqual(ranges.map((r) => slice(c.text, r)), c.want);
    });
  }
});

Deno.test("matchBytes() never matches part of a character", () => {
  // NFC + case folding would not match "e" inside "é"; neither does the fold.
  deepEqual(matchBytes("café", [foldText("e")]), []);
  deepEqual(matchBytes("cafe", [foldText("e")]).length, 1);
});

Deno.test("matchBytes() merges overlapping matches of several needles", () => {
  const text = "connection refused";
  const ranges = matchBytes(text, [
    foldText("connection"),
    foldText("tion ref"),
  ]);
  deepEqual(ranges.map((r) => slice(text, r)), [
    "connection refused".slice(0, 14),
  ]);
});

Deno.test("snippetAround() keeps at most the budget in bytes on character boundaries", () => {
  const text = "é".repeat(400) + " needle " + "ü".repeat(400);
  const at = enc.encode("é".repeat(400) + " ").length;
  const { snippet, offset } = snippetAround(text, at, 280);
  ok(enc.encode(snippet).length <= 280);
  ok(snippet.includes("needle"));
  equal(slice(text, [offset, offset + enc.encode(snippet).length]), snippet);
});

Deno.test("parseSearchQuery() takes out filter words", async (t) => {
  const known = new Set(["codex", "claude-code"]);
  const cases: Array<
    {
      q: string;
      terms: string[];
      harnesses: string[];
      project?: string;
      window?: string;
    }
  > = [
    { q: "retry loop", terms: ["retry", "loop"], harnesses: [] },
    { q: "codex: retry", terms: ["retry"], harnesses: ["codex"] },
    {
      q: "codex:retry in:api week",
      terms: ["retry"],
      harnesses: ["codex"],
      project: "api",
      window: "week",
    },
    {
      q: '"connection refused" today',
      terms: ["connection refused"],
      harnesses: [],
      window: "today",
    },
    { q: 'http: "today"', terms: ["http:", "today"], harnesses: [] },
  ];
  for (const c of cases) {
    await t.step(c.q, () => {
      const p = parseSearchQuery(c.q, known);
      deepEqual(p.terms, c.terms);
      deepEqual(p.harnesses, c.harnesses);
      equal(p.project, c.project);
      equal(p.window, c.window);
    });
  }
});

Deno.test("windowStart() counts today from local midnight and week/month back from now", () => {
  const now = new Date(2026, 10, 21, 15, 30).getTime();
  equal(windowStart("today", now), new Date(2026, 10, 21, 0, 0).getTime());
  equal(windowStart("week", now), now - 7 * 86_400_000);
  equal(windowStart("month", now), now - 30 * 86_400_000);
});
