// `npx tsx bench/ingest-stages.ts`: process CPU per record of each JavaScript stage of ingest, with no
// database: parse (JSON and the envelope's zod), normalise (per-record checks, conventions, scrubbing),
// the NUL rule, classification (the built-in pack) and tally (rollup rows merged by key). Every stage
// runs over the same pre-made bodies in ingest's order; formats take turns round by round. Run it from
// two checkouts in turns for an A/B (the stages it calls exist on main as on later commits).
// BENCH_BATCHES (default 100) 100-record bodies per format and round; BENCH_ROUNDS (default 7);
// BENCH_FORMATS=otlp narrows it (for `node --import tsx --cpu-prof`).
import { replaceNulInPlace } from "../lib/contracts";
import { classifyErrorRows } from "../lib/classify/classify-errors";
import { compileRuleset } from "../lib/classify/classify";
import { classifyRows } from "../lib/classify/classify-rows";
import type { IngestFormat } from "../lib/ingest/format";
import { nativeFormat } from "../lib/ingest/formats/native";
import { otlpFormat } from "../lib/ingest/formats/otlp";
import { syncToldClassification } from "../lib/ingest/otlp/told-errors";
import type { RowBatch } from "../lib/ingest/rows";
import { tally, writtenFlags } from "../db/ingest/tally";
import { median } from "./ingest-common";
import { nativeBody, nativeTpl, otlpBody } from "./ingest-cpu";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const STAGES = ["parse", "normalise", "nul", "classify", "tally"] as const;
type Stage = (typeof STAGES)[number];

const ruleset = compileRuleset([], true);
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

/** ingest-envelope's NUL rule over a batch's rows (its entries, then its drops). */
function nulRule(rows: RowBatch): number {
  let changed = 0;
  for (const { row } of [...rows.spans, ...rows.toolErrors, ...rows.runs]) changed += replaceNulInPlace(row as unknown as Record<string, unknown>);
  for (const drop of rows.drops ?? []) changed += replaceNulInPlace(drop as unknown as Record<string, unknown>);
  return changed;
}

/**
 * One round of a format: every body through every stage in turn (one batch alive at a time, as in a
 * request), each stage's CPU µs per record.
 */
function round(format: IngestFormat<unknown>, bodies: readonly Uint8Array[], now: number): Record<Stage, number> {
  const t: Record<Stage, number> = { parse: 0, normalise: 0, nul: 0, classify: 0, tally: 0 };
  let records = 0;
  let keys = 0;
  for (const body of bodies) {
    let c = cpu();
    const envelope = format.parse(body, "application/json");
    let d = cpu();
    t.parse += d - c;
    const { rows, rejections, accepted } = format.normalize(envelope, now);
    c = cpu();
    t.normalise += c - d;
    nulRule(rows);
    d = cpu();
    t.nul += d - c;
    classifyRows(rows.spans, ruleset);
    classifyErrorRows(rows, ruleset, undefined);
    syncToldClassification(rows);
    c = cpu();
    t.classify += c - d;
    const flags = writtenFlags(rows);
    flags.spans.fill(1);
    flags.toolErrors.fill(1);
    flags.runs.fill(1);
    const rollups = tally("p", rows, flags).aggregates.all();
    d = cpu();
    t.tally += d - c;
    if (rejections.length > 0) throw new Error(`rejected: ${JSON.stringify(rejections[0])}`);
    records += accepted;
    for (const r of rollups) keys += r.size;
  }
  if (keys === 0) throw new Error("tally made no rollup rows");
  for (const s of STAGES) t[s] /= records;
  return t;
}

const cases = [
  { name: "native", format: nativeFormat as IngestFormat<unknown>, bodies: Array.from({ length: BATCHES }, (_, b) => nativeBody(nativeTpl, b)) },
  { name: "otlp", format: otlpFormat as IngestFormat<unknown>, bodies: Array.from({ length: BATCHES }, (_, b) => otlpBody(b)) },
].filter((c) => (process.env.BENCH_FORMATS ?? "native,otlp").split(",").includes(c.name));
const now = Date.now() + 86_400_000;
for (const c of cases) round(c.format, c.bodies, now); // warm-up
const out = new Map(cases.map((c) => [c.name, STAGES.map(() => [] as number[])]));
for (let r = 0; r < ROUNDS; r++) {
  for (const c of r % 2 ? [...cases].reverse() : cases) {
    const t = round(c.format, c.bodies, now);
    STAGES.forEach((s, i) => out.get(c.name)![i]!.push(t[s]));
  }
}
console.log(`bench ingest-stages: ${BATCHES} bodies of 100 records, ${ROUNDS} rounds, CPU µs/record median (min–max), load ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`);
for (const c of cases) {
  const cols = out.get(c.name)!;
  const totals = cols[0]!.map((_, r) => cols.reduce((s, col) => s + col[r]!, 0));
  const cell = (xs: number[]) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  console.log(`${c.name.padEnd(6)} ${STAGES.map((s, i) => `${s} ${cell(cols[i]!)}`).join("  ")}  total ${cell(totals)}`);
}
