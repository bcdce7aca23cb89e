/**
 * A strict unified-diff applier for instruction-doc edits: every context and
 * removed line must match, or the patch is refused.
 *
 * @module
 */

interface Hunk {
  oldStart: number;
  lines: string[];
}

function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  for (const line of patch.replace(/\r\n/g, "\n").split("\n")) {
    const m = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (m) {
      cur = { oldStart: Number(m[1]), lines: [] };
      hunks.push(cur);
      continue;
    }
    if (!cur) continue; // headers (---/+++) before the first hunk
    if (line === "" || line.startsWith("\\")) continue;
    if (/^[ +-]/.test(line)) cur.lines.push(line);
    else {throw new SyntaxError(
        `Bad patch line: ${JSON.stringify(line.slice(0, 40))}`,
      );}
  }
  if (hunks.length === 0) throw new SyntaxError("The patch has no hunks");
  return hunks;
}

/**
 * Applies a unified diff to a text.
 *
 * @param text The base text.
 * @param patch The unified diff (`@@ -a,b +c,d @@` hunks).
 * @returns The patched text.
 * @throws {SyntaxError} when the patch is malformed or does not match.
 */
export function applyUnifiedDiff(text: string, patch: string): string {
  const src = text.split("\n");
  const out: string[] = [];
  let pos = 0;
  for (const hunk of parseHunks(patch)) {
    const start = Math.max(0, hunk.oldStart - 1);
    if (start < pos) throw new SyntaxError("Patch hunks overlap");
    out.push(...src.slice(pos, start));
    pos = start;
    for (const line of hunk.lines) {
      const body = line.slice(1);
      if (line[0] === "+") {
        out.push(body);
        continue;
      }
      if (src[pos] !== body) {
        throw new SyntaxError(
          `Patch does not apply at line ${pos + 1}: expected ${
            JSON.stringify(body.slice(0, 40))
          }`,
        );
      }
      if (line[0] === " ") out.push(body);
      pos++;
    }
  }
  out.push(...src.slice(pos));
  return out.join("\n");
}
