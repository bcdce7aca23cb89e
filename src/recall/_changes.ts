/**
 * The written side of an edit, read back from the transcript at the
 * moment it is asked for: the index keeps only the replaced text, so the
 * replacement comes from the source line the edit record points at (Claude
 * Code `old_string`/`new_string`, `MultiEdit` edits, Codex `apply_patch`).
 *
 * @module
 */
import { collapse } from "./_db.ts";

const MAX_LINE = 2 * 1024 * 1024;

async function lineAt(
  path: string,
  offset: number,
): Promise<string | undefined> {
  if (/\.(zst|zstd)$/.test(path)) return undefined;
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    await file.seek(offset, Deno.SeekMode.Start);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const buf = new Uint8Array(64 * 1024);
    while (size < MAX_LINE) {
      const n = await file.read(buf);
      if (n === null || n === 0) break;
      const part = buf.subarray(0, n);
      const nl = part.indexOf(10);
      if (nl >= 0) {
        chunks.push(part.slice(0, nl));
        size += nl;
        break;
      }
      chunks.push(part.slice());
      size += n;
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      all.set(c.subarray(0, Math.min(c.length, size - at)), at);
      at += c.length;
    }
    return new TextDecoder().decode(all);
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

function* objects(
  value: unknown,
  depth = 0,
): Generator<Record<string, unknown>> {
  if (depth > 12 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const v of value) yield* objects(v, depth + 1);
    return;
  }
  const obj = value as Record<string, unknown>;
  yield obj;
  for (const v of Object.values(obj)) yield* objects(v, depth + 1);
}

function* strings(value: unknown, depth = 0): Generator<string> {
  if (depth > 12) return;
  if (typeof value === "string") {
    yield value;
    if (value.startsWith("{") || value.startsWith("[")) {
      try {
        yield* strings(JSON.parse(value), depth + 1);
      } catch {
        // Plain text that happens to start with a brace.
      }
    }
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) yield* strings(v, depth + 1);
  }
}

function fromPatch(patch: string, removed: string): string | undefined {
  const lines = patch.split("\n");
  const want = collapse(removed);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]?.startsWith("-")) continue;
    let j = i;
    const minus: string[] = [];
    while (j < lines.length && lines[j]?.startsWith("-")) {
      minus.push((lines[j++] as string).slice(1));
    }
    const plus: string[] = [];
    while (j < lines.length && lines[j]?.startsWith("+")) {
      plus.push((lines[j++] as string).slice(1));
    }
    if (collapse(minus.join("\n")) === want) return plus.join("\n");
    i = j - 1;
  }
  return undefined;
}

/**
 * Reads the replacement text of an edit from its source transcript line.
 *
 * @param edit The transcript file, the byte offset of the line holding
 *   the edit, and the replaced text the index kept.
 * @returns The written text, or undefined when it cannot be found.
 */
export async function writtenSide(
  edit: { path: string; offset: number; removed: string },
): Promise<string | undefined> {
  const { path, offset, removed } = edit;
  const line = await lineAt(path, offset);
  if (!line) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return undefined;
  }
  const want = collapse(removed);
  for (const obj of objects(data)) {
    if (
      typeof obj.old_string === "string" &&
      typeof obj.new_string === "string" && collapse(obj.old_string) === want
    ) {
      return obj.new_string;
    }
  }
  if (!want) return undefined;
  for (const s of strings(data)) {
    if (s.includes("*** Begin Patch") || /^@@/m.test(s)) {
      const found = fromPatch(s, removed);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
