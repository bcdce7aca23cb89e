#!/usr/bin/env python3
"""A hello-world Deja Loop command analyzer in Python.

It finds the same fact (subject, relation, object) stored in more than one
namespace and suggests consolidating it: a structural finding, so it never
carries text from the evidence into memory.

Protocol (envelope version 1), JSON lines on stdin, one JSON object on stdout:
  {"loop":1,"op":"manifest"}                       -> the manifest
  {"loop":1,"op":"run",...} then one row per line  -> {"drafts":[...]}

Try it:
  echo '{"loop":1,"op":"manifest"}' | python3 examples/analyzers/hello.py
  deja loop run --dry-run --only example.hello/1 \
    --analyzer-cmd 'example.hello/1=python3 examples/analyzers/hello.py'
"""
import json
import sys

MANIFEST = {
    "id": "example.hello/1",
    "title": "Same fact in several namespaces",
    "description": "Facts stored identically in more than one namespace.",
    "evidence": {"types": ["fact"], "limit": 5000},
}


def fold(text):
    return " ".join(str(text).lower().split())


def analyze(rows):
    groups = {}
    for row in rows:
        grain = row.get("grain", {})
        if grain.get("type") != "fact":
            continue
        key = (fold(grain["subject"]), fold(grain["relation"]), fold(grain["object"]))
        groups.setdefault(key, []).append((grain["namespace"], row["hash"], grain["subject"]))
    drafts = []
    for (subject, relation, _), members in sorted(groups.items()):
        namespaces = sorted({ns for ns, _, _ in members})
        if len(namespaces) < 2:
            continue
        drafts.append({
            "target_ref": f"entity:{subject}/{relation}",
            "action": "consolidate_namespaces",
            "template": {"id": "example.cross_namespace", "args": {
                "subject": members[0][2], "relation": relation, "namespaces": len(namespaces)}},
            "evidence": [h for _, h, _ in members][:64],
            "severity": "info",
        })
    return drafts


def main():
    lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
    if not lines:
        sys.exit("expected a request on stdin")
    request = json.loads(lines[0])
    if request.get("loop") != 1:
        sys.exit("unsupported envelope version")
    if request.get("op") == "manifest":
        print(json.dumps(MANIFEST))
    elif request.get("op") == "run":
        print(json.dumps({"drafts": analyze(json.loads(line) for line in lines[1:])}))
    else:
        sys.exit(f"unknown op {request.get('op')!r}")


if __name__ == "__main__":
    main()
