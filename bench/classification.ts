// `npm run bench:ingest -- --classify` — what classification costs at ingest, and how fast history is
// re-classified (docs/classification.md). OTLP requests of 100 tool spans (40 % failures: HTTP
// statuses, SDK exception types, free-text messages) through the whole ingest path on SQLite
// (normalise, classify, write), into a project with 100 rules of its own plus the built-in pack,
// against the same requests into a project with no rules and the pack off. The two take turns, round
// by round, so the machine's load hits both alike; the ratio is printed per round and overall. Then
// the re-classification rate: stored failures per second brought to a new rule by the job.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore, type Store } from "../db/client";
import { createClassificationRule, setBuiltinPack } from "../db/classify/rules";
import { ruleInputSchema } from "../lib/contracts/classification";
import { otlpFormat } from "../lib/ingest/formats/otlp";
import { ingestEnvelope } from "../server/ingest/ingest-envelope";
import { reclassifyProject } from "../server/jobs/reclassify-job";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 5;
const SPANS = 100;
const T0 = Date.now() - 86_400_000;

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const int = (key: string, v: number) => ({ key, value: { intValue: v } });
const FAILURES = [
  (i: number) => ({ message: `upstream answered ${i}`, attrs: [int("http.response.status_code", [429, 503, 404, 500][i % 4]!)] }),
  (i: number) => ({ message: `Error code: 429 - rate limit for org-${i}`, attrs: [str("error.type", "openai.RateLimitError")] }),
  (i: number) => ({ message: `booking bk_${i} for 'Ann' not found`, attrs: [str("error.type", "BookingMissingError")] }),
  (i: number) => ({ message: `seat ${i}A is taken on flight LH${i}`, attrs: [str("error.type", "SeatTakenError")] }),
];

let sequence = 0;
function request(): Uint8Array {
  const batch = sequence++;
  const spans = Array.from({ length: SPANS }, (_, k) => {
    const n = batch * SPANS + k;
    const failure = k % 5 < 2 ? FAILURES[n % FAILURES.length]!(n) : null;
    const start = T0 + n * 10;
    return {
      traceId: (batch + 1).toString(16).padStart(32, "0"), spanId: (n + 1).toString(16).padStart(16, "0"), name: "execute_tool", kind: 1,
      startTimeUnixNano: `${start}000000`, endTimeUnixNano: `${start + 5}000000`,
      attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", `tool_${k % 7}`), str("gen_ai.tool.call.id", `c${n}`), ...(failure?.attrs ?? [])],
      ...(failure ? { status: { code: 2, message: failure.message } } : {}),
    };
  });
  return new TextEncoder().encode(JSON.stringify({ resourceSpans: [{ resource: { attributes: [str("service.name", "bench")] }, scopeSpans: [{ scope: { name: "bench" }, spans }] }] }));
}

/** 100 rules that look like real ones and match nothing of the bench's traffic: every failure walks all of them. */
const RULES = Array.from({ length: 100 }, (_, i) =>
  ruleInputSchema.parse(
    [
      { name: `r${i}`, match: { tool: `other_tool_${i}*` }, set: { code: `c${i}` } },
      { name: `r${i}`, match: { errorType: `Custom${i}Error` }, set: { code: `c${i}` } },
      { name: `r${i}`, match: { message: `*never seen ${i}*` }, set: { code: `c${i}` } },
      { name: `r${i}`, match: { httpStatus: [418], attributes: [{ key: "x.kind", value: `k${i}` }] }, set: { code: `c${i}` } },
    ][i % 4],
  ),
);

async function openProject(dir: string, name: string, rules: boolean): Promise<Store> {
  const store = await openStore(path.join(dir, `${name}.db`));
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  if (rules) await store.transaction(async (tx) => {
    for (let i = 0; i < RULES.length; i++) await createClassificationRule(tx, "p", `r_${String(i).padStart(12, "0")}`, RULES[i]!, "bench", 0);
  });
  else await store.transaction((tx) => setBuiltinPack(tx, "p", false, "bench", 0));
  return store;
}

async function spansPerSecond(store: Store, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  const start = performance.now();
  let spans = 0;
  while (performance.now() < until) {
    await ingestEnvelope(store, "p", otlpFormat, otlpFormat.parse(request(), "application/json"));
    spans += SPANS;
  }
  return spans / ((performance.now() - start) / 1000);
}

export async function classificationBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "fl-bench-classify-"));
  const none = await openProject(dir, "none", false);
  const hundred = await openProject(dir, "hundred", true);
  console.log(`bench:ingest --classify — OTLP requests of ${SPANS} spans (40 % failures) through normalise + classify + write on SQLite, ${ROUNDS} alternating rounds of ${SECONDS}s, Node ${process.version}`);
  await spansPerSecond(none, 1);
  await spansPerSecond(hundred, 1);
  const ratios: number[] = [];
  let sumNone = 0;
  let sumHundred = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ([hundred, none] as const) : ([none, hundred] as const);
    const rates = new Map<Store, number>();
    for (const store of order) rates.set(store, await spansPerSecond(store, SECONDS));
    const a = rates.get(none)!;
    const b = rates.get(hundred)!;
    sumNone += a;
    sumHundred += b;
    ratios.push(b / a);
    console.log(`round ${round + 1}: no rules ${a.toFixed(0)} spans/s, 100 rules + pack ${b.toFixed(0)} spans/s, ratio ${(b / a).toFixed(3)}`);
  }
  // The median round is the headline: on a shared machine one round can be hit by another process.
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `100 rules + pack vs none: median round ratio ${median.toFixed(3)} (rounds ${sorted[0]!.toFixed(3)}–${sorted[sorted.length - 1]!.toFixed(3)}, mean rates ${(sumHundred / sumNone).toFixed(3)}): ingest cost ${((1 - median) * 100).toFixed(1)} % (target ≤ 10 %)`,
  );

  // Re-classification: a rule naming the seat failures, applied to everything stored so far.
  const failures = Number((await hundred.get<{ n: number }>("SELECT count(*) AS n FROM failure_facts"))?.n ?? 0);
  await hundred.transaction((tx) =>
    createClassificationRule(tx, "p", "r_seatseatseat", ruleInputSchema.parse({ name: "seats", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolRefusal" } }), "bench", 0),
  );
  const start = performance.now();
  const outcome = await reclassifyProject(hundred, "p", { held: async () => true });
  const seconds = (performance.now() - start) / 1000;
  console.log(`re-classification: ${failures} stored failures in ${seconds.toFixed(2)} s = ${(failures / seconds).toFixed(0)} failures/s (${outcome.detail})`);
  await Promise.all([none.close(), hundred.close()]);
}
