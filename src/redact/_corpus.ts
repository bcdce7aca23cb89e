/**
 * A deterministic, invented corpus of transcript-like texts (prose, code,
 * tool output, commands) for the redaction bench and the false-positive
 * test. Clean texts hold the words secrets hide behind (token, password,
 * key, auth, Bearer, cookie, curl -u, mysql -p, sha256, UUIDs, paths) but
 * no secret; {@link SECRET_SNIPPETS} are mixed in only on request.
 *
 * @module
 */

/** Options for {@link transcriptCorpus}. */
export interface CorpusOptions {
  /** Approximate total size in UTF-16 code units. */
  chars: number;
  /** Seed for the generator; the same seed gives the same corpus. */
  seed?: number;
  /** One text in this many gets a secret snippet; 0 for none. */
  secretEvery?: number;
}

/** Secrets the mixed corpus inserts: the text, its secret value, the rule that should count it. */
export const SECRET_SNIPPETS: readonly {
  text: string;
  secret: string;
  id: string;
}[] = [
  {
    text: "export GITHUB_TOKEN=ghp_R8x2Lq9Zt4Wm7Kc1Vb5Nd3Hs6Jf0Pa2Ye8Ug",
    secret: "ghp_R8x2Lq9Zt4Wm7Kc1Vb5Nd3Hs6Jf0Pa2Ye8Ug",
    id: "github-token",
  },
  {
    text: "DB_PASSWORD=Vq7!mZr2#kLp9",
    secret: "Vq7!mZr2#kLp9",
    id: "credential",
  },
  {
    text:
      "curl -H 'Authorization: Bearer 9fK2mQ7xL4pZ8wR1' https://api.example.test/v2/items",
    secret: "9fK2mQ7xL4pZ8wR1",
    id: "bearer",
  },
  {
    text: "DATABASE_URL=postgres://svc:Hx93kLmq2@db.internal:5432/orders",
    secret: "Hx93kLmq2",
    id: "url-credentials",
  },
  {
    text: "aws_secret_access_key = Jq8Lm3Zp0Xr7Tc2Wv5Nb9Kd4Hs6Fg1Ay8Ue3Ri0",
    secret: "Jq8Lm3Zp0Xr7Tc2Wv5Nb9Kd4Hs6Fg1Ay8Ue3Ri0",
    id: "aws-secret",
  },
  {
    text: "ssh deploy box with: sshpass -p 'Tg5#wq8Lz' ssh ops@10.1.2.3",
    secret: "Tg5#wq8Lz",
    id: "cli-credential",
  },
  {
    text: "the staging admin password is Pl4typ*s9 for now",
    secret: "Pl4typ*s9",
    id: "prose-password",
  },
  {
    text: 'config.json: { "client_secret": "q8Zr2Lm5Xt9Kc3Wv7Nb1" }',
    secret: "q8Zr2Lm5Xt9Kc3Wv7Nb1",
    id: "credential",
  },
];

const WORDS = (
  "the a to of and in is it that for on with as this be are was by at or from " +
  "we you they can will should would could not but if then else when which " +
  "file function test build error value return index search record session " +
  "parser query result config option path module import export change " +
  "update fix run check output input server client request response cache " +
  "store write read line count limit time date format string number list " +
  "database migration schema column table row commit branch merge rebase " +
  "now first next also just only because before after into over under " +
  "here there these those what how why where all some any each every " +
  "make made use used add added remove removed keep kept look looks found"
).split(" ");

// Words secrets hide behind, drawn rarely as in real transcripts.
const RARE_WORDS = (
  "token tokens key keys auth author password secret bearer cookie pass " +
  "passed passing bypass keyboard credentials"
).split(" ");

const IDENTS = [
  "getUserAccountByIdentifier",
  "parseTranscriptLine",
  "MAX_RETRY_COUNT",
  "renderSearchResults",
  "buildIndexSegment",
  "normalizeWhitespace",
  "SessionBuilder",
  "readLinesStreaming",
  "formatRelativeAge",
];
const RARE_IDENTS = [
  "token_count",
  "max_tokens",
  "authorName",
  "keyboardLayout",
  "isPasswordValid",
  "secretManagerClient",
  "handleAuthCallback",
  "cookieParser",
  "bypassCache",
];

/**
 * Builds texts until about `options.chars` code units are reached.
 *
 * @param options Size, seed and how often to add a secret.
 * @returns The texts, one per record.
 * @example
 * ```ts
 * import { transcriptCorpus } from "./_corpus.ts";
 * import { ok } from "node:assert/strict";
 * const texts = transcriptCorpus({ chars: 20_000, seed: 1 });
 * ok(texts.join("").length >= 20_000);
 * ```
 */
export function transcriptCorpus(options: CorpusOptions): string[] {
  let state = (options.seed ?? 42) >>> 0;
  const next = (): number => {
    // xorshift32: small, fast and the same everywhere.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const int = (lo: number, hi: number): number =>
    lo + Math.floor(next() * (hi - lo + 1));
  const hex = (n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)];
    return s;
  };
  const uuid = (): string =>
    `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const sentence = (): string => {
    const n = int(6, 18);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = next();
      ws.push(
        r < 0.003
          ? pick(RARE_WORDS)
          : r < 0.005
          ? pick(RARE_IDENTS)
          : r < 0.04
          ? pick(IDENTS)
          : pick(WORDS),
      );
    }
    const s = ws.join(" ");
    return s[0]!.toUpperCase() + s.slice(1) + pick([".", ".", ".", "?", ":"]);
  };
  const path = (): string =>
    `/home/dev/projects/${pick(["deja", "shop-api", "notes"])}/src/${
      pick(["core", "index", "search", "server"])
    }/${pick(IDENTS).toLowerCase()}.ts`;
  /** The line one time in ten, else an ordinary one. */
  const rarely = (line: string): string =>
    next() < 0.1 ? line : `  // ${pick(IDENTS)}: ${pick(WORDS)} ${pick(WORDS)}`;
  /** `count` lines drawn from `pool`, in pool order. */
  const some = (pool: readonly (() => string)[], count: number): string[] =>
    pool.filter(() => next() < count / pool.length).map((f) => f());

  const tsLines: (() => string)[] = [
    () =>
      `import { ${pick(IDENTS)} } from "./${pick(IDENTS).toLowerCase()}.ts";`,
    () =>
      `export async function ${
        pick(IDENTS)
      }(input: string, options: Options = {}): Promise<Result> {`,
    () => `  const started = performance.now();`,
    () =>
      `  const rows = await db.query("SELECT id, title FROM sessions WHERE project = ? LIMIT ?", [project, ${
        int(10, 500)
      }]);`,
    () =>
      `  for (const row of rows) results.push({ id: row.id, score: bm25(row) * ${
        int(1, 9)
      }.${int(0, 9)} });`,
    () => `  if (!res.ok) throw new Error(\`request failed: \${res.status}\`);`,
    () => `  const url = new URL(\`/v1/records?limit=\${limit}\`, baseUrl);`,
    () => `  const elapsed = Math.round(performance.now() - started);`,
    () => `  log.debug("indexed", { files: ${int(1, 900)}, ms: elapsed });`,
    () => `  return { ok: true, count: ${int(0, 999)}, id: "${uuid()}" };`,
    () =>
      rarely(
        `  const headers = { "Content-Type": "application/json", Authorization: \`Bearer \${token}\` };`,
      ),
    () => rarely(`  const apiKey = process.env.API_KEY ?? "";`),
    () => rarely(`  const max_tokens = ${int(256, 8192)};`),
    () => `  // ${sentence()}`,
    () =>
      `  expect(${pick(IDENTS)}(${int(0, 9)})).toEqual([${int(0, 9)}, ${
        int(0, 9)
      }]);`,
    () => `}`,
  ];
  const pyLines: (() => string)[] = [
    () =>
      rarely(
        `def ${
          pick(IDENTS).toLowerCase()
        }(user, password: str = None, token: Optional[str] = None):`,
      ),
    () =>
      `    rows = cursor.execute("select * from runs where id = %s", (run_id,)).fetchall()`,
    () => rarely(`    secret = os.environ["APP_SECRET"]`),
    () =>
      rarely(
        `    conn = psycopg.connect(host=host, user=user, password=password)`,
      ),
    () => `    digest = hashlib.sha256(data).hexdigest()  # e.g. ${hex(64)}`,
    () => rarely(`    token_count = len(tokens)`),
    () =>
      `    logger.info("processed %d rows in %.2fs", len(rows), time.time() - t0)`,
    () => `    return {"id": "${uuid()}", "count": ${int(1, 500)}}`,
    () => `    # ${sentence()}`,
  ];
  const shellLines: (() => string)[] = [
    () => `$ mkdir -p ${path()}`,
    () => `$ git status --short`,
    () => ` M ${path()}`,
    () =>
      rarely(
        `$ curl -s https://api.example.test/health -H "Authorization: Bearer $API_TOKEN"`,
      ),
    () => `{"status":"ok","version":"1.${int(0, 9)}.${int(0, 20)}"}`,
    () => rarely(`$ mysql -u root -p app_db < schema.sql`),
    () =>
      rarely(
        `$ deploy --password-file ~/.config/deploy/pw --token-env DEPLOY_TOKEN`,
      ),
    () => rarely(`$ docker run --rm -e PASSWORD -p 8080:80 nginx:1.27`),
    () => `$ npm install --save-dev typescript@5.${int(0, 9)}.${int(0, 9)}`,
    () =>
      `added ${int(10, 400)} packages, and audited ${
        int(400, 900)
      } packages in ${int(1, 20)}s`,
    () => rarely(`Cookie: theme=dark; lang=en`),
    () => `sha256:${hex(64)}`,
    () => `\u2713 built in ${int(1, 30)}.${int(0, 9)}s \u2192 dist/`,
    () => `$ grep -rn "${pick(IDENTS)}" src/ | head -${int(5, 40)}`,
    () => `${path()}:${int(1, 400)}:  ${pick(IDENTS)}(${pick(WORDS)});`,
  ];

  const makers: [number, () => string][] = [
    // Prose from the assistant or the user.
    [10, () => {
      const ps: string[] = [];
      for (let p = int(1, 4); p > 0; p--) {
        const ss: string[] = [];
        for (let s = int(2, 6); s > 0; s--) ss.push(sentence());
        ps.push(ss.join(" "));
      }
      return ps.join("\n\n");
    }],
    [4, () => ["```ts", ...some(tsLines, 8), "```"].join("\n")],
    [2, () => ["```python", ...some(pyLines, 5), "```"].join("\n")],
    [3, () => some(shellLines, 5).join("\n")],
    // Directory listing and file paths.
    [2, () => {
      const lines = ["$ ls -la src/"];
      for (let i = int(5, 25); i > 0; i--) {
        lines.push(
          `-rw-r--r--  1 dev  staff  ${int(100, 99999)} Mar ${int(1, 28)} 12:${
            int(10, 59)
          } ${pick(IDENTS).toLowerCase()}_${int(1, 9)}.ts`,
        );
      }
      lines.push(`Read ${path()}`, `Edited ${path()}`);
      return lines.join("\n");
    }],
    // git log and diff output.
    [2, () => {
      const lines: string[] = [];
      for (let i = int(2, 8); i > 0; i--) {
        lines.push(
          `commit ${hex(40)}`,
          `Author: Dev Person <dev@example.test>`,
          `Date:   Mon Mar ${int(1, 28)} 10:${int(10, 59)}:00 2025 +0100`,
          "",
          `    ${sentence()}`,
          "",
        );
      }
      lines.push(
        `diff --git a/src/index.ts b/src/index.ts`,
        `index ${hex(7)}..${hex(7)} 100644`,
      );
      lines.push(
        `-  const rows = load(path);`,
        `+  const rows = await loadRows(path, { limit });`,
      );
      return lines.join("\n");
    }],
    // Test runner output.
    [2, () => {
      const lines: string[] = [];
      for (let i = int(5, 30); i > 0; i--) {
        lines.push(
          `${next() < 0.9 ? "ok" : "FAILED"} | ${
            pick(IDENTS)
          }() ${sentence().toLowerCase()} ... (${int(1, 900)}ms)`,
        );
      }
      lines.push(
        `passed: ${int(10, 300)}  fail: ${int(0, 3)}  skipped: ${int(0, 9)}`,
      );
      return lines.join("\n");
    }],
    // JSON from a tool or an API.
    [2, () =>
      JSON.stringify(
        {
          id: uuid(),
          sha: hex(40),
          integrity: `sha512-${hex(20)}`,
          message_id: `msg_01${hex(22)}`,
          created: `2025-03-${int(10, 28)}T10:${int(10, 59)}:00Z`,
          token_count: int(10, 5000),
          url: `https://api.example.test/v1/items/${int(1, 9999)}?page=${
            int(1, 9)
          }`,
          tags: [pick(WORDS), pick(WORDS)],
          ...(next() < 0.2
            ? { image: `data:image/png;base64,iVBORw0KGgo${hex(300)}` }
            : {}),
          ...(next() < 0.05 ? { auth: { type: "oauth", required: true } } : {}),
        },
        null,
        2,
      )],
    // Prose with the tricky words.
    [1, () =>
      pick([
        `The password is wrong, so the login failed. The password is the same as staging.`,
        `Rotate it after the bearer of bad news arrives; the secret to success is grit.`,
        `Use --password-file ~/.pw instead of --password prompt. Branch sk-my-long-feature-branch-name is merged.`,
        `The API key is stored in the vault; auth: required. ${sentence()}`,
      ])],
  ];
  const weight = makers.reduce((a, [w]) => a + w, 0);
  const make = (): string => {
    let r = next() * weight;
    for (const [w, f] of makers) if ((r -= w) < 0) return f();
    return makers[0]![1]();
  };

  const out: string[] = [];
  let size = 0;
  let n = 0;
  const every = options.secretEvery ?? 0;
  while (size < options.chars) {
    let text = make();
    n++;
    if (every > 0 && n % every === 0) {
      text += `\n${pick(SECRET_SNIPPETS).text}\n${sentence()}`;
    }
    out.push(text);
    size += text.length;
  }
  return out;
}

/**
 * The real transcript samples: `$DEJA_SAMPLES` when set (a worktree or a
 * clone elsewhere), else `shared/samples` beside the repository.
 */
const SAMPLES_ROOT = new URL(
  Deno.env.get("DEJA_SAMPLES")?.replace(/\/?$/, "/") ??
    "../../../shared/samples/",
  import.meta.url,
);

/**
 * Every string value of every JSONL line under `root` (as the real samples
 * beside the repository), once each: a stand-in for record texts. Returns
 * an empty list when `root` cannot be read.
 *
 * @param root A directory URL ending in `/` (default: the shared samples).
 * @returns The distinct strings.
 * @example
 * ```ts
 * import { sampleTexts } from "./_corpus.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(sampleTexts(new URL("file:///no/such/dir/")), []);
 * ```
 */
export function sampleTexts(root: URL = SAMPLES_ROOT): string[] {
  const texts = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === "string") texts.add(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object") Object.values(v).forEach(collect);
  };
  const walk = (dir: URL): void => {
    for (const e of Deno.readDirSync(dir)) {
      const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
      if (e.isDirectory) walk(url);
      else if (e.name.endsWith(".jsonl")) {
        for (const line of Deno.readTextFileSync(url).split("\n")) {
          try {
            collect(JSON.parse(line));
          } catch {
            // Torn or non-JSON lines carry no record text here.
          }
        }
      }
    }
  };
  try {
    walk(root);
  } catch {
    return [];
  }
  return [...texts];
}
