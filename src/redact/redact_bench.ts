/**
 * Redaction throughput. Each bench redacts about 5 MB (5,000,000 UTF-16
 * code units) of transcript-like text, record by record as the index does,
 * so MB/s = 5 / (seconds per iteration).
 *
 *   deno bench src/redact/redact_bench.ts
 *
 * @module
 */
import { sampleTexts, transcriptCorpus } from "./_corpus.ts";
import { redact } from "./redact.ts";

const CHARS = 5_000_000;
const clean = transcriptCorpus({ chars: CHARS, seed: 7 });
const mixed = transcriptCorpus({ chars: CHARS, seed: 7, secretEvery: 20 });

Deno.bench({
  name: "redact() 5 MB of clean transcript text",
  group: "redact",
  baseline: true,
  fn() {
    for (const text of clean) redact(text);
  },
});

Deno.bench({
  name: "redact() 5 MB with a secret in 1 text of 20",
  group: "redact",
  fn() {
    for (const text of mixed) redact(text);
  },
});

// The same on the real transcript samples beside the repository, when they
// are there: every string value of every JSONL line, as one record each.

const samples = sampleTexts();
const sampleChars = samples.reduce((n, t) => n + t.length, 0);

Deno.bench({
  name: `redact() real samples (${(sampleChars / 1e6).toFixed(1)} M chars)`,
  group: "samples",
  ignore: samples.length === 0,
  fn() {
    for (const text of samples) redact(text);
  },
});
