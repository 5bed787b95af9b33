/**
 * `npm run demo` — a simulated support agent with realistic flaky tools, run a few hundred times
 * across three releases through the real runtime and exporter into a running Faultline. A simulated
 * model reads what it is told after each error and acts on it (scripts/demo-model.ts): it fixes
 * arguments whose errors say how, retries transient failures, explains refusals, picks another tool
 * for one it may not use — so "After the model was told" has real contrasts to show.
 *
 *   FAULTLINE_URL=http://127.0.0.1:3000 FAULTLINE_KEY=... npm run demo
 *   npm run demo -- --key <key> [--url <url>] [--runs 300] [--seed 1] [--format otlp] [--dry-run] [--project <id>] [--read-key <key>] [--admin-secret <secret>]
 *
 * The fare-class wording of `upstream_rejected` is an experiment (scripts/demo-experiment.ts): the
 * demo creates and starts it in the project (`--project`, default `default`) unless it exists, which
 * takes the admin secret (`--admin-secret` or FAULTLINE_ADMIN_SECRET) once an account exists. With a
 * read key (`--read-key` or FAULTLINE_READ_KEY) the agent also takes the project's wording set from
 * Faultline, so an experiment started or a winner promoted on the Experiments page reaches it.
 *
 * Time is simulated (VirtualTime): backoffs, timeouts and tool latencies are recorded as if they
 * happened, spread over the last 24 hours, but the whole demo finishes in seconds.
 */
import {
  CircuitBreaker,
  Exporter,
  MemorySink,
  RemoteWordings,
  ToolErrorMap,
  ToolFailure,
  ToolRefusal,
  ToolRunner,
  VirtualTime,
  anthropicToolResults,
  refusal,
  seededRandom,
  transient,
  permanent,
  type RecordSink,
  type ToolCallRequest,
  type ToolDefinition,
} from "../lib/runtime";
import { FARE_WORDINGS, ensureDemoExperiment } from "./demo-experiment";
import { createModel } from "./demo-model";

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = flag("url") ?? process.env.FAULTLINE_URL ?? "http://127.0.0.1:3000";
const key = flag("key") ?? process.env.FAULTLINE_KEY;
const runs = Number(flag("runs") ?? 300);
const seed = Number(flag("seed") ?? 1);
const format = flag("format") === "otlp" ? "otlp" : "native";
const dryRun = args.includes("--dry-run");
const readKey = flag("read-key") ?? process.env.FAULTLINE_READ_KEY;
const project = flag("project") ?? "default";

if (!dryRun && !key) {
  console.error("demo: no ingest key. Pass --key <key> or set FAULTLINE_KEY (create one with `npm run keys`), or use --dry-run.");
  process.exit(2);
}

/**
 * Why nothing answers at `base`, or null when something does (any HTTP answer). Without this check a
 * wrong URL only shows as every record dropped with `network_error`, after the whole simulation.
 */
async function unreachable(base: string): Promise<string | null> {
  try {
    await fetch(new URL("/api/health", base), { signal: AbortSignal.timeout(10_000) });
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.message || cause?.code || (error as Error).message;
  }
}

if (!dryRun) {
  const why = await unreachable(url);
  if (why !== null) {
    console.error(`demo: could not connect to Faultline at ${url} (${why}). Start it with \`npm start\`, or pass --url <url> (or set FAULTLINE_URL).`);
    process.exit(1);
  }
}

const rnd = seededRandom(seed);
const chance = (p: number) => rnd() < p;
const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const time = new VirtualTime(Date.now() - 86_400_000);
/** A tool's own latency, in simulated time; aborts like a real client would. */
const latency = (lo: number, hi: number, signal: AbortSignal) => time.sleep(between(lo, hi), signal);

class HttpError extends Error {
  /** `retryAfterMs`: what the simulated upstream's `Retry-After` asked for, in milliseconds. */
  constructor(readonly status: number, message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}
class ConnectionReset extends Error {}

// The supplier's API: one breaker shared by every tool that calls it.
const supplier = new CircuitBreaker("supplier-api", { failureThreshold: 6, halfOpenAfterMs: 45_000, clock: time });
const supplierErrors = new ToolErrorMap([[ConnectionReset, transient("supplier_unavailable")]], {
  statuses: {
    409: refusal("booking_not_cancellable", "this fare is non-refundable"),
    422: permanent("upstream_rejected", { experiment: FARE_WORDINGS }),
    429: transient("rate_limited", { retryAfterMs: (e) => (e as HttpError).retryAfterMs }),
    503: transient("upstream_unavailable", { retryAfterMs: (e) => (e as HttpError).retryAfterMs }),
  },
});

function tools(release: string): ToolDefinition[] {
  const v14 = release.startsWith("1.4");
  return [
    {
      name: "search_flights",
      version: "2.1.0",
      idempotent: true,
      async execute(_a, ctx) {
        await latency(150, 900, ctx.signal);
        if (chance(0.06)) throw new Error("ECONNRESET: socket hang up");
        return { flights: between(0, 12) };
      },
    },
    {
      name: "book_flight",
      version: v14 ? "3.0.0" : "2.4.1",
      breaker: supplier,
      errorMap: supplierErrors,
      validate(a) {
        const { passengers, date } = (a ?? {}) as { passengers?: number; date?: string };
        const problems: Record<string, string> = {};
        // 1.4.0 shortened the argument errors to "invalid": the model no longer learns how to fix them.
        if (!Number.isInteger(passengers) || passengers! < 1 || passengers! > 9) problems.passengers = v14 ? "invalid" : "must be an integer from 1 to 9";
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? "")) problems.date = v14 ? "invalid" : "must be an ISO date (YYYY-MM-DD)";
        return Object.keys(problems).length ? problems : undefined;
      },
      async execute(a, ctx) {
        await latency(300, 1400, ctx.signal);
        if (outage) throw new HttpError(503, "Service Unavailable", 2000);
        const r = rnd();
        if (r < 0.1) throw new HttpError(503, "Service Unavailable", pick([1000, 2000, 2000, 3000]));
        // Whole seconds, as a real Retry-After header gives them.
        if (r < 0.16) throw new HttpError(429, "Too Many Requests", chance(0.25) ? 3_600_000 : between(1, 5) * 1000);
        if (r < 0.19) throw new ConnectionReset("connection reset by peer");
        // Fare class B is no longer sold: what the model is told is the fare-wording experiment's.
        if ((a as { fare_class?: string }).fare_class === "B") throw new HttpError(422, "fare class no longer sold");
        return { booking: `BK${between(10000, 99999)}` };
      },
    },
    {
      name: "cancel_booking",
      version: v14 ? "3.0.0" : "2.4.1",
      breaker: supplier,
      errorMap: supplierErrors,
      async execute(_a, ctx) {
        await latency(200, 800, ctx.signal);
        if (chance(0.35)) throw new HttpError(409, "Conflict: fare basis NR");
        if (chance(0.08)) throw new HttpError(503, "Service Unavailable", 2000);
        return { cancelled: true };
      },
    },
    {
      // The drift: `inventory_locked` was a transient failure in 1.3.x and became a refusal in 1.4.0.
      name: "check_inventory",
      version: v14 ? "1.4.0" : release,
      async execute(_a, ctx) {
        await latency(50, 300, ctx.signal);
        if (chance(v14 ? 0.25 : 0.3)) {
          if (v14) throw new ToolRefusal("check_inventory", "inventory_locked", "the seat is held by another booking");
          throw new ToolFailure("check_inventory", "inventory_locked", { transient: true, retryAfterMs: 1000, message: "seat map locked" });
        }
        return { seats: between(0, 40) };
      },
    },
    {
      name: "fetch_fare_rules",
      version: "1.0.3",
      idempotent: true,
      timeoutMs: 3000,
      async execute(_a, ctx) {
        await latency(chance(0.12) ? 4000 : 200, chance(0.12) ? 6000 : 1200, ctx.signal);
        return { refundable: chance(0.4) };
      },
    },
    {
      name: "lookup_customer",
      version: "1.1.0",
      async execute(_a, ctx) {
        await latency(40, 200, ctx.signal);
        if (chance(0.05)) throw new Error(`no customer record for ${pick(["jane.doe@example.com", "kenji@example.jp"])} (token sk-live-9f8e7d6c5b4a3f2e)`);
        return { tier: pick(["gold", "silver", "basic"]) };
      },
    },
    { name: "refund_payment", version: "0.9.0", execute: () => ({ refunded: true }) },
  ];
}

const RELEASES = ["1.3.2", "1.3.5", "1.4.0"] as const;
/** A supplier outage in the middle of the day: the breaker opens and turns calls away fast. */
let outage = false;
let connectionLost = false;
const exporter = dryRun
  ? undefined
  : new Exporter({ endpoint: url, apiKey: key!, format, resource: { service: "support-agent", environment: "demo" }, onError: lostConnection });
/** Said once: Faultline stopped answering while the demo ran (records are then dropped as `network_error`). */
function lostConnection(message: string): void {
  if (connectionLost || !message.includes("network_error")) return;
  connectionLost = true;
  process.stderr.write(`\ndemo: lost the connection to Faultline at ${url}: records are being dropped\n`);
}
if (!dryRun) console.error(`demo: ${await ensureDemoExperiment({ url, project, adminSecret: flag("admin-secret") ?? process.env.FAULTLINE_ADMIN_SECRET })}`);
// Refreshed on the wall clock (the demo's own clock is simulated); the local experiment applies until it answers.
const wordings = readKey && !dryRun ? new RemoteWordings({ baseUrl: url, project, apiKey: readKey, onError: (e) => process.stderr.write(`demo: wording set: ${String(e)}\n`) }) : undefined;
await wordings?.refresh();
const memory = new MemorySink();
const sink: RecordSink = exporter ?? memory;

const runners = new Map(
  RELEASES.flatMap((release) => (["surface_to_model", "fail_run"] as const).map((policy) => [
    `${release}/${policy}`,
    new ToolRunner({
      onToolError: policy,
      agent: "support-agent",
      agentVersion: release,
      release,
      environment: "demo",
      tools: tools(release),
      permitted: tools(release).map((t) => t.name).filter((n) => n !== "refund_payment"),
      retry: { maxAttempts: 4, baseDelayMs: 400, maxDelayMs: 8000, maxRetryAfterMs: 30_000 },
      sink,
      clock: time,
      scheduler: time,
      random: rnd,
      ...(wordings ? { wordings } : {}),
    }),
  ] as const)),
);

const newCallId = () => `toolu_${Math.floor(rnd() * 2 ** 48).toString(36)}`;

const PLAN_TOOLS = ["search_flights", "book_flight", "book_flight", "cancel_booking", "check_inventory", "check_inventory", "fetch_fare_rules", "lookup_customer", "refund_payment", "search_hotels"];

/** A fresh turn of the agent's own plan: one to three calls, some with bad arguments, none of a tool it gave up on in this run. */
function turn(abandoned: ReadonlySet<string> = new Set()): ToolCallRequest[] {
  const calls: ToolCallRequest[] = [];
  const n = between(1, 3);
  const tools = PLAN_TOOLS.filter((t) => !abandoned.has(t));
  for (let i = 0; i < n && tools.length > 0; i++) {
    const tool = pick(tools);
    const badArgs = chance(0.3);
    const a =
      tool === "book_flight"
        ? { passengers: badArgs && chance(0.5) ? 0 : between(1, 4), date: badArgs ? pick(["next friday", "14/03/2027"]) : "2027-03-14", fare_class: pick(["Y", "M", "M", "B"]) }
        : { booking: `BK${between(10000, 99999)}` };
    // The agent's own plan answers no error: it says so, so that the run does not link it to one.
    calls.push({ callId: newCallId(), tool, args: a, afterError: null });
  }
  return calls;
}

const counts = { runs: 0, calls: 0, undispatched: 0, completed: 0, failed: 0, cancelled: 0 };
const model = createModel({ chance, pick, between });
const span = 86_400_000 - 30 * 60_000;
function progress(done: number): void {
  if (!process.stderr.isTTY && done !== runs && done % 50 !== 0) return;
  const width = 30;
  const filled = Math.round((done / runs) * width);
  const s = exporter?.stats();
  const tail = s ? ` sent ${s.sent} queued ${s.queued} dropped ${s.droppedTotal}` : ` records ${memory.records.length}`;
  process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${runs} runs${tail}   ${process.stderr.isTTY ? "" : "\n"}`);
}

for (let i = 0; i < runs; i++) {
  const release = RELEASES[Math.min(RELEASES.length - 1, Math.floor((i / runs) * RELEASES.length))]!;
  time.set(Date.now() - 86_400_000 + Math.floor((i / runs) * span) + between(0, 60_000));
  const controller = new AbortController();
  outage = i / runs > 0.42 && i / runs < 0.45;
  const run = runners.get(`${release}/${chance(0.15) ? "fail_run" : "surface_to_model"}`)!.startRun({ timeoutMs: 90_000, signal: controller.signal });
  if (chance(0.02)) time.schedule(() => controller.abort(), between(500, 3000));
  // Tools the model gave up on after an error: it explained that to the user and does not try them again.
  const abandoned = new Set<string>();
  let requests = turn();
  for (let t = between(2, 5); t > 0 && run.state === "running" && requests.length > 0; t--) {
    // The model's turn asks for these tool uses; now and then the agent loses one (a bug the run's
    // unanswered count reports) and the adapter answers it with an error instead.
    run.modelTurn(requests.map((r) => r.callId!));
    const dispatched = requests.length > 1 && chance(0.03) ? requests.slice(0, -1) : requests;
    const results = await run.callAll(dispatched);
    // What goes back to the model: one tool_result per tool_use, errors flagged.
    anthropicToolResults(requests.map((r) => ({ id: r.callId!, name: r.tool })), results);
    // A call the run never dispatched (it had already failed or been cancelled) has no attempt, so
    // no span: the dashboard counts calls by their spans, and so does this summary.
    const ran = results.filter((r) => r.attempts > 0).length;
    counts.calls += ran;
    counts.undispatched += results.length - ran;
    await time.sleep(between(400, 2500)).catch(() => {}); // the model thinking
    // It reads what it was told and decides what to do about each error; the rest of its plan follows.
    const followUps = results.flatMap((r, i) => model.react(r, dispatched[i]!, newCallId, (tool) => abandoned.add(tool)));
    requests = [...followUps, ...(followUps.length === 0 || chance(0.5) ? turn(abandoned) : [])];
  }
  const record = run.end();
  // Spans of timed-out attempts wait a short grace period to learn whether the body stopped.
  await run.drain();
  counts.runs++;
  counts[record.state as "completed" | "failed" | "cancelled"]++;
  progress(i + 1);
  // Simulated time never lets real timers fire, so give the exporter real time to send regularly
  // instead of letting its bounded queue overflow.
  if (exporter && (i + 1) % 20 === 0) await exporter.flush();
}

if (exporter) {
  await exporter.shutdown({ timeoutMs: 15_000 });
  progress(runs);
}
process.stderr.write("\n");
const s = exporter?.stats();
console.log(`demo: ${counts.runs} runs (${counts.completed} completed, ${counts.failed} failed, ${counts.cancelled} cancelled), ${counts.calls} tool calls (the dashboard's count; ${counts.undispatched} more were never dispatched: their run had already ended) across releases ${RELEASES.join(", ")}`);
if (s) {
  console.log(`exporter (${format}) → ${url}: produced ${s.produced}, sent ${s.sent} (${s.duplicates} duplicates), dropped ${s.droppedTotal} ${JSON.stringify(Object.fromEntries(Object.entries(s.dropped).filter(([, n]) => n > 0)))}`);
  if (s.sent === 0) {
    console.error(`demo: nothing was accepted. ${s.lastError ?? ""} — is Faultline running at ${url} and is the key valid?`);
    process.exit(1);
  }
} else {
  console.log(`dry run: ${memory.records.length} records kept in memory (nothing sent)`);
}
