import { equal, ok } from "node:assert/strict";
import type { Session } from "../core/types.ts";
import { prepareSessions } from "./_prepare.ts";
import { decodeBodySync } from "./_body.ts";
import { FLAG } from "./schema.ts";
import { titleFrom } from "../core/text.ts";

/** A record of a fixture session (a tool name when given). */
function recordOf(
  role: Session["records"][number]["role"],
  text: string,
  seq: number,
  tool?: string,
): Session["records"][number] {
  return {
    role,
    text,
    seq,
    ...(tool ? { tool } : {}),
    locator: { path: "/f.jsonl", line: seq },
  };
}

/** A prepared record's stored text. */
function storedText(r: { body: Uint8Array | string; flags: number }): string {
  return decodeBodySync(r.body, (r.flags & FLAG.compressed) !== 0);
}

Deno.test("prepareSessions() redacts what a long output's excerpt keeps before cutting its lines", () => {
  const token = `ghp_${"A1b2C3d4E5".repeat(4).slice(0, 36)}`;
  const lines = Array.from({ length: 400 }, (_, i) => `step ${i} ok`);
  lines[150] = `error: push rejected for token ${token}`;
  // A trouble line the excerpt cuts at 400 characters, the token across the
  // cut: redacted first, no piece of it is left to store.
  lines[260] = `warning: ${"x".repeat(378)} token=${token}`;
  lines[399] =
    `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY`;
  const session: Session = {
    harness: "fixture",
    id: "s1",
    project: "api",
    path: "/x.jsonl",
    title: "",
    records: [{
      role: "tool-output",
      text: lines.join("\n"),
      seq: 0,
      locator: { path: "/x.jsonl", line: 1 },
    }],
    marks: [],
  };
  const counts: Record<string, number> = {};
  const [prepared] = prepareSessions([session], true, counts);
  const rec = prepared!.records[0]!;
  ok((rec.flags & FLAG.truncated) !== 0, "kept as an excerpt");
  const stored = decodeBodySync(rec.body, (rec.flags & FLAG.compressed) !== 0);
  ok(stored.includes("[redacted:github-token]"), stored.slice(0, 200));
  ok(!stored.includes(token));
  ok(!stored.includes(token.slice(0, 16)), "no piece of a cut token");
  ok(!stored.includes("wJalrXUtnFEMI"));
  ok(!rec.posting.includes(token));
  equal(counts["github-token"], 2);
});

Deno.test("prepareSessions() cuts a title from the redacted turn, so a cut secret cannot stay", () => {
  const secret = "icDFlvym36q/kXHdHuqzkXiJZkYIQ90uSA3qEmmt";
  // The secret straddles the title's 100-character cut.
  const first = `${
    "the nightly export fails, ".repeat(2)
  }creds: secret ${secret}`;
  const titleOf = (title: string): string | null => {
    const session: Session = {
      harness: "fixture",
      id: "s2",
      project: "api",
      path: "/y.jsonl",
      title,
      records: [{
        role: "user",
        text: first,
        seq: 0,
        locator: { path: "/y.jsonl", line: 1 },
      }],
      marks: [],
    };
    return prepareSessions([session], true, {})[0]!.title;
  };
  // Made from the first turn (as the parsers do): cut from the redacted one.
  const made = titleOf(titleFrom(first));
  ok(made?.includes("[redacted:aws-secret]"), made ?? "");
  ok(!made?.includes(secret.slice(0, 8)), made ?? "");
  // Set by the harness and already cut: a token-like last word goes.
  const given = titleOf(`rotate the key icDFlvym36q/kXHdHu…`);
  equal(given, "rotate the key …");
  equal(
    titleOf("new DEPLOY_TOKEN is glpat-ZfDdeLuRfYFwp…"),
    "new DEPLOY_TOKEN is …",
  );
  equal(titleOf("refactor the implementati…"), "refactor the implementati…");
});

Deno.test("prepareSessions() drops the bare values a secret-printing command's output holds", () => {
  const record = (
    role: Session["records"][number]["role"],
    text: string,
    seq: number,
  ) => recordOf(role, text, seq, "Bash");
  const session: Session = {
    harness: "fixture",
    id: "s3",
    project: "api",
    path: "/z.jsonl",
    title: "",
    records: [
      record("command", "heroku auth:token", 0),
      record(
        "tool-output",
        " ›   Warning: token will expire 03/14/2027\n2adaf897-2e8c-49b8-8323-1e01b627e2c3",
        1,
      ),
      record(
        "command",
        "kubectl get secret db -o jsonpath='{.data.pw}' | base64 -d",
        2,
      ),
      record("tool-output", "MQ.p_elUQ01GzO#S2%-eLJ", 3),
      record("command", "git rev-parse HEAD", 4),
      record("tool-output", "3f1a9c2b4d5e6f708192a3b4c5d6e7f8091a2b3c", 5),
    ],
    marks: [],
  };
  const counts: Record<string, number> = {};
  const [prepared] = prepareSessions([session], true, counts);
  const text = (i: number) => storedText(prepared!.records[i]!);
  equal(
    text(1),
    " ›   Warning: token will expire 03/14/2027\n[redacted:command-output]",
  );
  equal(text(3), "[redacted:command-output]");
  equal(text(5), "3f1a9c2b4d5e6f708192a3b4c5d6e7f8091a2b3c");
  equal(counts["command-output"], 2);
});

Deno.test("a long tool output keeps its last lines and middle errors in the stored excerpt", async () => {
  const { SessionBuilder } = await import("../sources/_builder.ts");
  const lines = Array.from({ length: 12_000 }, (_, i) => `step ${i} ok`);
  lines[6_000] = "ERROR: disk quota exceeded on /var/lib/data";
  lines.push("Tests: 3 failed, 97 passed");
  const text = lines.join("\n");
  ok(text.length > 100_000, "longer than a speech record may be");
  const builder = new SessionBuilder({
    harness: "fixture",
    id: "s3",
    path: "/z.jsonl",
  });
  builder.add("tool-output", text, { locator: { path: "/z.jsonl", line: 1 } });
  const [prepared] = prepareSessions([builder.build()], true, {});
  const rec = prepared!.records[0]!;
  const stored = decodeBodySync(rec.body, (rec.flags & FLAG.compressed) !== 0);
  ok(stored.includes("disk quota exceeded"), "the middle error");
  ok(stored.includes("Tests: 3 failed, 97 passed"), "the real last line");
  ok(rec.posting.includes("quota"));
});

Deno.test("prepareSessions() pairs outputs with a batch of commands, and a nameless output with the latest", () => {
  const rec = recordOf;
  const session: Session = {
    harness: "fixture",
    id: "s4",
    project: "api",
    path: "/p.jsonl",
    title: "",
    records: [
      // Two calls, then both results: the secret one's output came second.
      rec("command", "pwd", 0, "shell"),
      rec("command", "op read op://Prod/api/credential", 1, "shell"),
      rec("tool-output", "/home/dev/code/shop", 2, "shell"),
      rec("tool-output", "ttrcYeBR7aV7sUK1!lSH", 3, "shell"),
      // A `!` shell turn's output carries no tool name.
      rec("command", "security find-generic-password -s ci -w", 4, "bash"),
      rec("tool-output", "GYQ4y1JMcXCz9WaF5F^9", 5),
      // A later batch without a secret command is left alone.
      rec("command", "git rev-parse HEAD", 6, "shell"),
      rec(
        "tool-output",
        "3f1a9c2b4d5e6f708192a3b4c5d6e7f8091a2b3c",
        7,
        "shell",
      ),
    ],
    marks: [],
  };
  const [prepared] = prepareSessions([session], true, {});
  const text = (i: number) => storedText(prepared!.records[i]!);
  equal(text(2), "/home/dev/code/shop");
  equal(text(3), "[redacted:command-output]");
  equal(text(5), "[redacted:command-output]");
  equal(text(7), "3f1a9c2b4d5e6f708192a3b4c5d6e7f8091a2b3c");
});

Deno.test("prepareSessions() redacts a token in a working directory and the project made from it", () => {
  const session: Session = {
    harness: "fixture",
    id: "s5",
    project: "deploy-ghp_kpO1mj9KbX0ZhWK35mL7plI2PtNG8tLtB4a3",
    path: "/q.jsonl",
    cwd: "/home/dev/tmp/deploy-ghp_kpO1mj9KbX0ZhWK35mL7plI2PtNG8tLtB4a3",
    title: "",
    records: [],
    marks: [],
  };
  const [prepared] = prepareSessions([session], true, {});
  equal(prepared!.cwd, "/home/dev/tmp/deploy-[redacted:github-token]");
  equal(prepared!.project, "deploy-[redacted:github-token]");
});

Deno.test("prepareSessions() reads UTF-16 text without its NULs and a person's answers in tool output as speech", () => {
  const utf16 = [
    ..."AWS_SECRET_ACCESS_KEY=Kp4Wn8Zr2Xq6Tv0Lm3Hb7Jc5Fd9Sa1Gy4Ue8Ro2Q",
  ]
    .join("\0");
  const session: Session = {
    harness: "fixture",
    id: "s9",
    project: "api",
    path: "/z.jsonl",
    title: "",
    records: [
      recordOf("tool-output", `${utf16}\0`, 0, "Bash"),
      recordOf(
        "tool-output",
        'User has answered your questions: "Which account?"="ssh in as deploy, pw 3sSFUMmKYR#9"',
        1,
        "AskUserQuestion",
      ),
      // Not the person's words: tool output keeps the output rules.
      recordOf("tool-output", "ssh in as deploy, pw 3sSFUMmKYR#9", 2, "Bash"),
    ],
    marks: [],
  };
  const [prepared] = prepareSessions([session], true, {});
  const text = (i: number) => storedText(prepared!.records[i]!);
  equal(text(0), "AWS_SECRET_ACCESS_KEY=[redacted:aws-secret]");
  equal(text(1).includes("3sSFUMmKYR#9"), false, text(1));
  equal(text(2), "ssh in as deploy, pw 3sSFUMmKYR#9");
});
