/**
 * A unified diff of two texts, for `install --dry-run`.
 *
 * @module
 */

/**
 * Line-level unified diff with three lines of context.
 *
 * @param path The file shown in the headers.
 * @param before The old text ("" for a new file).
 * @param after The new text ("" for a removed file).
 * @returns The diff, or "" when the texts are equal.
 * @example
 * ```ts
 * import { lineDiff } from "./line_diff.ts";
 * import { ok } from "node:assert/strict";
 * ok(lineDiff("f", "a\nb\n", "a\nc\n").includes("-b\n+c"));
 * ```
 */
export function lineDiff(path: string, before: string, after: string): string {
  if (before === after) return "";
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  const n = a.length;
  const m = b.length;
  // Longest common subsequence table; config files are small.
  const lcs: number[][] = Array.from(
    { length: n + 1 },
    () => new Array<number>(m + 1).fill(0),
  );
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j]
        ? lcs[i + 1]![j + 1]! + 1
        : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Array<
    { op: " " | "-" | "+"; line: string; ai: number; bi: number }
  > = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: " ", line: a[i] as string, ai: i++, bi: j++ });
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ op: "-", line: a[i] as string, ai: i++, bi: j });
    } else {
      ops.push({ op: "+", line: b[j] as string, ai: i, bi: j++ });
    }
  }
  const out = [
    `--- ${before === "" ? "/dev/null" : `a/${path.replace(/^\//, "")}`}`,
    `+++ ${after === "" ? "/dev/null" : `b/${path.replace(/^\//, "")}`}`,
  ];
  const changed = ops.map((o, k) => (o.op !== " " ? k : -1)).filter((k) =>
    k >= 0
  );
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] as number;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 7) {
      last = changed[++k] as number;
    }
    k++;
    const from = Math.max(0, first - 3);
    const to = Math.min(ops.length - 1, last + 3);
    const hunk = ops.slice(from, to + 1);
    const aStart = hunk[0]!.ai + 1;
    const bStart = hunk[0]!.bi + 1;
    const aLen = hunk.filter((o) => o.op !== "+").length;
    const bLen = hunk.filter((o) => o.op !== "-").length;
    out.push(
      `@@ -${aLen ? aStart : aStart - 1},${aLen} +${
        bLen ? bStart : bStart - 1
      },${bLen} @@`,
    );
    for (const o of hunk) out.push(`${o.op}${o.line}`);
  }
  return `${out.join("\n")}\n`;
}
