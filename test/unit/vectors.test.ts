// The shared vectors (test/vectors/*.json) are what the Python package (sdk/python) is checked
// against: here they are checked against the TypeScript runtime, so the two cannot drift apart.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { argsHash, canonicalArgs } from "@/lib/contracts/args-hash";
import { scrubText } from "@/lib/contracts/scrub";
import { assignVariant, assignmentBucket, fnv1a32 } from "@/lib/runtime";
import { vectorFiles } from "../vectors/files";

const dir = path.join(import.meta.dirname, "../vectors");
const read = (name: string): unknown => JSON.parse(readFileSync(path.join(dir, name), "utf8"));

describe("shared test vectors", () => {
  it("each file is what the TypeScript runtime computes now (regenerate: npx tsx test/vectors/generate.ts)", async () => {
    const files = await vectorFiles();
    expect(Object.keys(files).sort()).toEqual(["args-hash.json", "assignment.json", "clamp.json", "decisions.json", "error-map.json", "scripted-run.json", "scrub.json", "wording-set.json"]);
    for (const [name, content] of Object.entries(files)) expect(read(name), name).toEqual(JSON.parse(JSON.stringify(content)));
  });

  it("args_hash of the arguments as read back from JSON matches the file", () => {
    const cases = read("args-hash.json") as { name: string; args: unknown; canonical: string; hash: string }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      expect(canonicalArgs(c.args), c.name).toBe(c.canonical);
      expect(argsHash(c.args), c.name).toBe(c.hash);
    }
  });

  it("scrub cases redact what they should and are idempotent", () => {
    const cases = read("scrub.json") as { input: string; output: string }[];
    for (const c of cases) {
      expect(scrubText(c.input)).toBe(c.output);
      expect(scrubText(c.output)).toBe(c.output);
    }
    expect(cases.filter((c) => c.input !== c.output).length).toBeGreaterThanOrEqual(15);
  });

  it("the assignment cases as read back from JSON assign the same variants (edges between variants included)", () => {
    const v = read("assignment.json") as {
      fnv: { input: string; hash: number }[];
      cases: { name: string; experiment: string; variants: { id: string; weight: number }[]; runs: { run_id: string; bucket: number; variant: string | null }[] }[];
    };
    for (const f of v.fnv) expect(fnv1a32(f.input), JSON.stringify(f.input)).toBe(f.hash);
    expect(v.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of v.cases) {
      for (const r of c.runs) {
        expect(assignmentBucket(r.run_id, c.experiment), `${c.name} ${r.run_id}`).toBe(r.bucket);
        expect(assignVariant(r.run_id, c.experiment, c.variants)?.id ?? null, `${c.name} ${r.run_id}`).toBe(r.variant);
      }
    }
    // The file holds the edge where only left-to-right double sums agree (0.1 + 0.2 > 0.3).
    const fractions = v.cases.find((c) => c.name.startsWith("fractional"))!;
    expect(fractions.runs.find((r) => r.bucket === 3000)!.variant).toBe("b");
  });
});
