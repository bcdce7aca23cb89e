/**
 * A deterministic generator of a Claude Code + Codex transcript store of a
 * given size: realistic line shapes, tool calls, long tool outputs, failures
 * and fixes, a few secrets. Same seed and size → byte-identical files.
 *
 * @module
 */

/** Options for {@linkcode generateStore}. */
export interface GenerateOptions {
  /** Target total bytes of transcripts. */
  bytes: number;
  /** PRNG seed. */
  seed?: number;
  /**
   * Each transcript's size in bytes, from `min` to `max` (default: one in ten
   * 400 KB–1.2 MB, the rest 40–200 KB). Small ones make a store of many
   * files, as months of short sessions and sub-agents leave.
   */
  fileBytes?: { min: number; max: number };
}

/** What was generated. */
export interface GeneratedStore {
  /** Files written. */
  files: string[];
  /** Total bytes written. */
  bytes: number;
  /** Sessions written. */
  sessions: number;
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Text is drawn the way real transcripts are shaped: function words most of
// the time, a long Zipf-distributed tail of ordinary vocabulary, and a
// session's own few technical topics. (A first version drew every word
// uniformly from ~150 technical terms, so every query matched ~40% of all
// sessions: no real history looks like that.)
const FUNCTION_WORDS = (
  "the a to of and in for on with that this is it we should can be from by as not are will " +
  "i you so but if then when what which there here now just also"
).split(" ");
const SYLLABLES =
  "ka lo mi ne ru sa ti vo ze ba de fi go hu ja ke li mo nu pa qui re so tu vi wa xe yo zu"
    .split(" ");
/** ~4,000 pseudo-words for the ordinary-vocabulary tail. */
const TAIL = Array.from({ length: 4000 }, (_, i) => {
  let n = i + 29;
  let word = "";
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
});
const WORDS = (
  "api server client request response handler route middleware database migration schema table index query " +
  "cache redis postgres docker compose container image volume network port deploy staging production " +
  "test tests failing passing flaky timeout retry error exception stack trace log logging metric " +
  "config env variable secret token auth login session cookie user account permission role " +
  "build bundle webpack vite typescript type interface function module import export package dependency " +
  "refactor rename extract split merge branch commit rebase pull review fix bug regression issue " +
  "queue worker job scheduler cron event stream kafka message consumer producer batch " +
  "terraform bucket region eu-west-1 us-east-1 lambda gateway cdn dns certificate tls " +
  "performance latency throughput memory leak profile benchmark slow fast optimize"
).split(" ");
const PROJECTS = [
  "api",
  "web",
  "infra",
  "billing",
  "mobile",
  "search",
  "auth",
  "worker",
];
const COMMANDS = [
  "npm test",
  "npm run build",
  "deno task test",
  "cargo test",
  "go test ./...",
  "pytest -x tests/",
  "docker compose up -d db",
  "git status",
  "git diff --stat",
  "terraform plan",
  "kubectl get pods -n staging",
  "make lint",
];
const ERRORS = [
  "Error: connect ECONNREFUSED 127.0.0.1:5432",
  "TypeError: Cannot read properties of undefined (reading 'id')",
  "error[E0308]: mismatched types",
  "FAIL src/api/users.test.ts > returns 404 for a missing user",
  "Error: Cannot find module 'pg'",
  "panic: runtime error: invalid memory address or nil pointer dereference",
];

class Text {
  #rand: () => number;
  /** The current session's topics: a handful of technical words. */
  topics: string[] = [];
  constructor(rand: () => number) {
    this.#rand = rand;
  }
  /** Picks a session's topics. */
  newTopics(): void {
    this.topics = Array.from({ length: 6 }, () => this.pick(WORDS));
  }
  /** A Zipf-like pick: index ~ list.length^u, so early entries dominate. */
  zipf<T>(list: readonly T[]): T {
    const i = Math.floor(Math.pow(list.length, this.#rand())) - 1;
    return list[Math.min(list.length - 1, Math.max(0, i))] as T;
  }
  word(): string {
    const r = this.#rand();
    if (r < 0.45) return this.zipf(FUNCTION_WORDS);
    if (r < 0.8) return this.zipf(TAIL);
    if (r < 0.95 && this.topics.length) return this.pick(this.topics);
    return this.pick(WORDS);
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#rand() * list.length)] as T;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#rand() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.#rand() < p;
  }
  sentence(min = 6, max = 18): string {
    const n = this.int(min, max);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(this.word());
    const s = words.join(" ");
    return s.charAt(0).toUpperCase() + s.slice(1) + ".";
  }
  paragraph(sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(" ");
  }
  output(lines: number): string {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) {
      out.push(
        this.chance(0.03)
          ? this.pick(ERRORS)
          : `  ${this.pick(["✓", "ok", "PASS", "info", "debug"])} ${
            this.sentence(3, 9)
          } (${this.int(1, 900)}ms)`,
      );
    }
    return out.join("\n");
  }
}

function uuid(t: Text): string {
  const hex = () => t.int(0, 15).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join("");
  return `${part(8)}-${part(4)}-4${part(3)}-a${part(3)}-${part(12)}`;
}

function claudeSession(
  t: Text,
  id: string,
  project: string,
  start: number,
  targetBytes: number,
): string {
  const cwd = `/home/dev/src/${project}`;
  const lines: string[] = [];
  let time = start;
  let parent: string | null = null;
  let bytes = 0;
  const push = (obj: Record<string, unknown>) => {
    const uuidV = uuid(t);
    const line = JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd,
      sessionId: id,
      version: "2.1.40",
      gitBranch: "main",
      ...obj,
      uuid: uuidV,
      timestamp: new Date(time).toISOString(),
    });
    parent = uuidV;
    time += t.int(2_000, 90_000);
    lines.push(line);
    bytes += line.length + 1;
  };
  while (bytes < targetBytes) {
    push({
      type: "user",
      message: { role: "user", content: t.paragraph(t.int(1, 4)) },
    });
    push({
      type: "assistant",
      message: {
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: t.paragraph(t.int(2, 6)) }],
      },
    });
    const toolId = `toolu_${uuid(t).replaceAll("-", "")}`;
    const failing = t.chance(0.15);
    push({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id: toolId,
          name: "Bash",
          input: { command: t.pick(COMMANDS) },
        }],
      },
    });
    const out = t.output(t.chance(0.2) ? t.int(80, 400) : t.int(3, 30));
    push({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: toolId,
          is_error: failing,
          content: failing ? `Exit code 1\n${t.pick(ERRORS)}\n${out}` : out,
        }],
      },
    });
    if (t.chance(0.3)) {
      const editId = `toolu_${uuid(t).replaceAll("-", "")}`;
      push({
        type: "assistant",
        message: {
          role: "assistant",
          content: [{
            type: "tool_use",
            id: editId,
            name: "Edit",
            input: {
              file_path: `${cwd}/src/${t.pick(WORDS)}.ts`,
              old_string: t.sentence(),
              new_string: t.sentence(),
            },
          }],
        },
      });
      push({
        type: "user",
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: editId,
            content: "ok",
          }],
        },
      });
    }
    if (t.chance(0.02)) {
      push({
        type: "user",
        message: {
          role: "user",
          content: `use this: export AWS_SECRET_ACCESS_KEY=${
            uuid(t).replaceAll("-", "")
          }Ab9Z`,
        },
      });
    }
  }
  return lines.join("\n") + "\n";
}

function codexSession(
  t: Text,
  id: string,
  project: string,
  start: number,
  targetBytes: number,
): string {
  const cwd = `/home/dev/src/${project}`;
  const lines: string[] = [];
  let time = start;
  let bytes = 0;
  const push = (type: string, payload: Record<string, unknown>) => {
    const line = JSON.stringify({
      timestamp: new Date(time).toISOString(),
      type,
      payload,
    });
    time += t.int(1_000, 60_000);
    lines.push(line);
    bytes += line.length + 1;
  };
  push("session_meta", {
    id,
    timestamp: new Date(time).toISOString(),
    cwd,
    originator: "codex_cli_rs",
    cli_version: "0.63.0",
  });
  while (bytes < targetBytes) {
    const ask = t.paragraph(t.int(1, 3));
    push("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: ask }],
    });
    push("event_msg", { type: "user_message", message: ask, images: [] });
    push("response_item", {
      type: "reasoning",
      summary: [{ type: "summary_text", text: t.sentence() }],
    });
    const callId = `call_${uuid(t).replaceAll("-", "").slice(0, 24)}`;
    push("response_item", {
      type: "function_call",
      name: "shell_command",
      arguments: JSON.stringify({ command: t.pick(COMMANDS), workdir: cwd }),
      call_id: callId,
    });
    const failing = t.chance(0.15);
    const out = t.output(t.chance(0.2) ? t.int(80, 400) : t.int(3, 30));
    push("response_item", {
      type: "function_call_output",
      call_id: callId,
      output: `Exit code: ${
        failing ? 1 : 0
      }\nWall time: 1.2 seconds\nOutput:\n${
        failing ? t.pick(ERRORS) + "\n" : ""
      }${out}`,
    });
    const answer = t.paragraph(t.int(2, 6));
    push("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: answer }],
    });
    push("event_msg", { type: "agent_message", message: answer });
  }
  return lines.join("\n") + "\n";
}

/**
 * Writes a synthetic store under `home` (`.claude/projects` and `.codex/sessions`).
 *
 * @param home The fake HOME.
 * @param options Size and seed.
 * @returns What was written.
 */
export async function generateStore(
  home: string,
  options: GenerateOptions,
): Promise<GeneratedStore> {
  const t = new Text(prng(options.seed ?? 42));
  const files: string[] = [];
  let bytes = 0;
  let sessions = 0;
  let start = Date.UTC(2026, 0, 1);
  while (bytes < options.bytes) {
    const project = t.pick(PROJECTS);
    const id = uuid(t);
    const size = options.fileBytes
      ? t.int(options.fileBytes.min, options.fileBytes.max)
      : t.chance(0.1)
      ? t.int(400_000, 1_200_000)
      : t.int(40_000, 200_000);
    start += t.int(600_000, 20_000_000);
    t.newTopics();
    let path: string;
    let text: string;
    if (t.chance(0.55)) {
      const dir = `${home}/.claude/projects/-home-dev-src-${project}`;
      await Deno.mkdir(dir, { recursive: true });
      path = `${dir}/${id}.jsonl`;
      text = claudeSession(t, id, project, start, size);
    } else {
      const d = new Date(start);
      const day = `${d.getUTCFullYear()}/${
        String(d.getUTCMonth() + 1).padStart(2, "0")
      }/${String(d.getUTCDate()).padStart(2, "0")}`;
      const dir = `${home}/.codex/sessions/${day}`;
      await Deno.mkdir(dir, { recursive: true });
      path = `${dir}/rollout-${
        d.toISOString().slice(0, 19).replaceAll(":", "-")
      }-${id}.jsonl`;
      text = codexSession(t, id, project, start, size);
    }
    await Deno.writeTextFile(path, text);
    files.push(path);
    bytes += new TextEncoder().encode(text).length;
    sessions++;
  }
  return { files, bytes, sessions };
}

/**
 * Appends one more exchange to a generated Claude Code or Codex file.
 *
 * @param path A generated transcript.
 * @param seed Varies the appended text.
 */
export async function appendExchange(
  path: string,
  seed: number,
): Promise<void> {
  const t = new Text(prng(seed));
  const time = new Date(Date.UTC(2026, 10, 1) + seed * 1000).toISOString();
  const first = (await Deno.readTextFile(path)).split("\n", 1)[0] ?? "{}";
  let line: string;
  if (path.includes("/.codex/")) {
    line = JSON.stringify({
      timestamp: time,
      type: "event_msg",
      payload: { type: "user_message", message: t.paragraph(2) },
    });
  } else {
    const head = JSON.parse(first) as { sessionId?: string; cwd?: string };
    line = JSON.stringify({
      type: "user",
      sessionId: head.sessionId,
      cwd: head.cwd,
      uuid: uuid(t),
      timestamp: time,
      message: { role: "user", content: t.paragraph(2) },
    });
  }
  await Deno.writeTextFile(path, line + "\n", { append: true });
}
