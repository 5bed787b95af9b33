// `npm run bench:ingest -- --otlp-told` — what reading the told texts of OTLP agents costs at ingest
// (docs/otlp.md, "What the model was told"). OTLP requests of 20 agent runs, each a model call, a
// tool call (40 % of them failing) and a second model call whose input carries the tool's result and
// the conversation before it (Vercel AI SDK `ai.prompt.messages` on even runs, GenAI
// `gen_ai.input.messages` on odd ones, ~2 KB each), through the whole ingest path on SQLite
// (normalise, classify, write, told steps). Against the same requests with the prompt text under an
// attribute no convention reads: the same bodies, spans and runs, nothing told. The difference is
// reading the results and storing the told errors and their next steps. The two take turns, round by round, so the machine's load
// hits both alike; the ratio is printed per round and overall.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore, type Store } from "../db/client";
import { otlpFormat } from "../lib/ingest/formats/otlp";
import { ingestEnvelope } from "../server/ingest/ingest-envelope";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 5;
const RUNS = 20;
const T0 = Date.now() - 86_400_000;

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const HISTORY = Array.from({ length: 6 }, (_, i) => `Earlier turn ${i}: the customer asked about order A-${i} and its delivery window, and the agent answered.`);

let sequence = 0;
function request(withPrompts: boolean): Uint8Array {
  const batch = sequence++;
  const spans = Array.from({ length: RUNS }, (_, r) => {
    const n = batch * RUNS + r;
    const trace = (n + 1).toString(16).padStart(32, "0");
    const id = (k: number) => (n * 4 + k + 1).toString(16).padStart(16, "0");
    const at = (ms: number) => `${T0 + n * 100 + ms}000000`;
    const failed = r % 5 < 2;
    const vercel = n % 2 === 0;
    const callId = `call_${n}`;
    const result = failed ? `503 orders backend down for A-${n}` : `{"status":"shipping","id":"A-${n}"}`;
    const prompt = vercel
      ? JSON.stringify([
          ...HISTORY.map((text) => ({ role: "user", content: [{ type: "text", text }] })),
          { role: "assistant", content: [{ type: "tool-call", toolCallId: callId, toolName: "lookup_order", input: { id: `A-${n}` } }] },
          { role: "tool", content: [{ type: "tool-result", toolCallId: callId, toolName: "lookup_order", output: failed ? { type: "error-text", value: result } : { type: "json", value: { status: "shipping" } } }] },
        ])
      : JSON.stringify([
          ...HISTORY.map((content) => ({ role: "user", parts: [{ type: "text", content }] })),
          { role: "assistant", parts: [{ type: "tool_call", id: callId, name: "lookup_order", arguments: { id: `A-${n}` } }] },
          { role: "tool", parts: [{ type: "tool_call_response", id: callId, response: result }] },
        ]);
    const model = (k: number, start: number, withInput: boolean) => ({
      traceId: trace, spanId: id(k), parentSpanId: id(0), name: vercel ? "ai.generateText.doGenerate" : "chat gpt", kind: 1,
      startTimeUnixNano: at(start), endTimeUnixNano: at(start + 20),
      attributes: [
        vercel ? str("ai.operationId", "ai.generateText.doGenerate") : str("gen_ai.operation.name", "chat"),
        // Without: the same text under a key no convention reads, so both bodies weigh the same.
        ...(withInput ? [str(withPrompts ? (vercel ? "ai.prompt.messages" : "gen_ai.input.messages") : "bench.unread_prompt", prompt)] : []),
      ],
    });
    return [
      { traceId: trace, spanId: id(0), name: "invoke_agent orders", kind: 1, startTimeUnixNano: at(0), endTimeUnixNano: at(90), attributes: [str("gen_ai.operation.name", "invoke_agent"), str("gen_ai.agent.name", "orders")] },
      model(1, 1, false),
      {
        traceId: trace, spanId: id(2), parentSpanId: id(0), name: "execute_tool lookup_order", kind: 1, startTimeUnixNano: at(30), endTimeUnixNano: at(40),
        attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "lookup_order"), str("gen_ai.tool.call.id", callId), str("gen_ai.tool.call.arguments", JSON.stringify({ id: `A-${n}` }))],
        ...(failed ? { status: { code: 2, message: result } } : {}),
      },
      model(3, 50, true),
    ];
  }).flat();
  return new TextEncoder().encode(JSON.stringify({ resourceSpans: [{ resource: { attributes: [str("service.name", "bench"), str("service.version", "1.0.0")] }, scopeSpans: [{ scope: { name: "bench" }, spans }] }] }));
}

async function openProject(dir: string, name: string): Promise<Store> {
  const store = await openStore(path.join(dir, `${name}.db`));
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  return store;
}

async function runsPerSecond(store: Store, withPrompts: boolean, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  const start = performance.now();
  let runs = 0;
  while (performance.now() < until) {
    await ingestEnvelope(store, "p", otlpFormat, otlpFormat.parse(request(withPrompts), "application/json"));
    runs += RUNS;
  }
  return runs / ((performance.now() - start) / 1000);
}

/** Prints runs per second with and without the told texts' sources, and their ratio per round. */
export async function otlpToldBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "fl-bench-otlp-told-"));
  const plain = await openProject(dir, "plain");
  const told = await openProject(dir, "told");
  console.log(`bench:ingest --otlp-told — OTLP requests of ${RUNS} runs (4 spans each, 40 % failed tool calls) through normalise + classify + write on SQLite, ${ROUNDS} alternating rounds of ${SECONDS}s, Node ${process.version}`);
  await runsPerSecond(plain, false, 1);
  await runsPerSecond(told, true, 1);
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ([true, false] as const) : ([false, true] as const);
    const rates = new Map<boolean, number>();
    for (const withPrompts of order) rates.set(withPrompts, await runsPerSecond(withPrompts ? told : plain, withPrompts, SECONDS));
    const a = rates.get(false)!;
    const b = rates.get(true)!;
    ratios.push(b / a);
    console.log(`round ${round + 1}: prompts unread ${a.toFixed(0)} runs/s, prompts read (told errors stored) ${b.toFixed(0)} runs/s, ratio ${(b / a).toFixed(3)}`);
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const errors = Number((await told.get<{ n: number }>("SELECT count(*) AS n FROM tool_errors WHERE decision = 'surfaced'"))?.n ?? 0);
  console.log(`read vs unread: median round ratio ${median.toFixed(3)} (rounds ${sorted[0]!.toFixed(3)}–${sorted[sorted.length - 1]!.toFixed(3)}); ${errors} told errors stored`);
  await Promise.all([plain.close(), told.close()]);
}
