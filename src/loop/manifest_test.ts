import { deepEqual, equal, throws } from "node:assert/strict";
import {
  familyOf,
  isAnalyzerId,
  type ParamSpec,
  parseParam,
  resolveParams,
} from "./manifest.ts";
import { findAnalyzer } from "./registry.ts";

Deno.test("parseParam() validates each of the six kinds", async (t) => {
  const cases: Array<[ParamSpec, unknown, unknown]> = [
    [{ name: "b", description: "", kind: "bool", default: true }, "off", false],
    [{ name: "b", description: "", kind: "bool", default: true }, true, true],
    [
      { name: "i", description: "", kind: "int", default: 3, min: 1, max: 9 },
      "4",
      4,
    ],
    [
      {
        name: "f",
        description: "",
        kind: "float",
        default: 0.4,
        min: 0,
        max: 1,
      },
      "0.25",
      0.25,
    ],
    [
      { name: "s", description: "", kind: "str", default: "", maxLen: 5 },
      "abc",
      "abc",
    ],
    [
      {
        name: "e",
        description: "",
        kind: "enum",
        default: "a",
        choices: ["a", "b"],
      },
      "b",
      "b",
    ],
    [
      { name: "d", description: "", kind: "duration", default: "1d" },
      "6h",
      21_600_000,
    ],
    [
      { name: "d", description: "", kind: "duration", default: "1d" },
      5000,
      5000,
    ],
  ];
  for (const [spec, raw, want] of cases) {
    await t.step(
      `${spec.kind} ${JSON.stringify(raw)}`,
      () => equal(parseParam(spec, raw), want),
    );
  }
});

Deno.test("parseParam() rejects values outside the spec", async (t) => {
  const cases: Array<[ParamSpec, unknown]> = [
    [{ name: "b", description: "", kind: "bool", default: true }, "maybe"],
    [
      { name: "i", description: "", kind: "int", default: 3, min: 1, max: 9 },
      "2.5",
    ],
    [
      { name: "i", description: "", kind: "int", default: 3, min: 1, max: 9 },
      "10",
    ],
    [{
      name: "f",
      description: "",
      kind: "float",
      default: 0.4,
      min: 0,
      max: 1,
    }, "x"],
    [
      { name: "s", description: "", kind: "str", default: "", maxLen: 2 },
      "abc",
    ],
    [
      {
        name: "e",
        description: "",
        kind: "enum",
        default: "a",
        choices: ["a"],
      },
      "c",
    ],
    [{
      name: "d",
      description: "",
      kind: "duration",
      default: "1d",
      minMs: 86_400_000,
    }, "1h"],
    [{ name: "d", description: "", kind: "duration", default: "1d" }, "soon"],
  ];
  for (const [spec, raw] of cases) {
    await t.step(
      `${spec.kind} ${JSON.stringify(raw)}`,
      () => throws(() => parseParam(spec, raw), RangeError),
    );
  }
});

Deno.test("resolveParams() fills defaults and refuses unknown names", () => {
  const m = findAnalyzer("tool_failure")!.manifest;
  deepEqual(resolveParams(m), {
    window: 30 * 86_400_000,
    min_count: 3,
    min_rate: 0.4,
    min_abs: 50,
  });
  equal(resolveParams(m, { min_rate: 0.5 }).min_rate, 0.5);
  throws(() => resolveParams(m, { min_cuont: 4 }), /Unknown param "min_cuont"/);
});

Deno.test("isAnalyzerId() and familyOf() follow publisher.name/major", () => {
  equal(isAnalyzerId("acme.pii_scan/2"), true);
  equal(isAnalyzerId("acme.pii_scan"), false);
  equal(isAnalyzerId("Acme.x/1"), false);
  equal(familyOf("deja.tool_failure/1"), "tool_failure");
  equal(familyOf("acme.pii_scan/2"), "pii_scan");
});
