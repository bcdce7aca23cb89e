#!/usr/bin/env node
// A hello-world Deja Loop command analyzer in Node (no dependencies).
//
// It finds the same fact (subject, relation, object) stored in more than one
// namespace and suggests consolidating it: a structural finding, so it never
// carries text from the evidence into memory.
//
// Protocol (envelope version 1), JSON lines on stdin, one JSON object on stdout:
//   {"loop":1,"op":"manifest"}                       -> the manifest
//   {"loop":1,"op":"run",...} then one row per line  -> {"drafts":[...]}
//
// Try it:
//   echo '{"loop":1,"op":"manifest"}' | node examples/analyzers/hello.mjs
//   deja loop run --dry-run --only example.hello/1 \
//     --analyzer-cmd 'example.hello/1=node examples/analyzers/hello.mjs'

const MANIFEST = {
  id: "example.hello/1",
  title: "Same fact in several namespaces",
  description: "Facts stored identically in more than one namespace.",
  evidence: { types: ["fact"], limit: 5000 },
};

const fold = (text) =>
  String(text).toLowerCase().split(/\s+/).filter(Boolean).join(" ");

function analyze(rows) {
  const groups = new Map();
  for (const { hash, grain } of rows) {
    if (grain?.type !== "fact") continue;
    const key = [fold(grain.subject), fold(grain.relation), fold(grain.object)]
      .join("\u0000");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({
      namespace: grain.namespace,
      hash,
      subject: grain.subject,
      relation: fold(grain.relation),
    });
  }
  const drafts = [];
  for (const key of [...groups.keys()].sort()) {
    const members = groups.get(key);
    const namespaces = new Set(members.map((m) => m.namespace));
    if (namespaces.size < 2) continue;
    const { subject, relation } = members[0];
    drafts.push({
      target_ref: `entity:${fold(subject)}/${relation}`,
      action: "consolidate_namespaces",
      template: {
        id: "example.cross_namespace",
        args: { subject, relation, namespaces: namespaces.size },
      },
      evidence: members.map((m) => m.hash).slice(0, 64),
      severity: "info",
    });
  }
  return drafts;
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const lines = input.split("\n").filter((l) => l.trim());
  const request = JSON.parse(lines[0] ?? "null");
  if (request?.loop !== 1) {
    process.stderr.write("unsupported envelope version\n");
    process.exit(1);
  }
  if (request.op === "manifest") {
    process.stdout.write(JSON.stringify(MANIFEST) + "\n");
  } else if (request.op === "run") {
    process.stdout.write(
      JSON.stringify({
        drafts: analyze(lines.slice(1).map((l) => JSON.parse(l))),
      }) + "\n",
    );
  } else {
    process.stderr.write(`unknown op ${request.op}\n`);
    process.exit(1);
  }
});
