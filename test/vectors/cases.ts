// Shared vectors of the TypeScript runtime and the Python package (sdk/python): the inputs here,
// the expected outputs computed by the TypeScript runtime and written to test/vectors/*.json by
// `npx tsx test/vectors/generate.ts`. test/unit/vectors.test.ts checks the files against the
// runtime; sdk/python/tests/test_vectors.py checks the Python package against the same files.
import { argsHash, canonicalArgs } from "@/lib/contracts/args-hash";
import { scrubText } from "@/lib/contracts/scrub";
import type { IngestRecord } from "@/lib/contracts";
import {
  MemorySink,
  ToolErrorMap,
  ToolFailure,
  ToolRefusal,
  ToolRunner,
  ToolTimedOutError,
  decide,
  defineTool,
  permanent,
  refusal,
  retryOptions,
  sequentialIds,
  toldText,
  transient,
  type ToolError,
  type ToolErrorRule,
} from "@/lib/runtime";

export const ARGS_INPUTS: { name: string; args: unknown }[] = [
  { name: "empty object", args: {} },
  { name: "null", args: null },
  { name: "keys out of order", args: { b: 1, a: 2, c: { z: true, y: false } } },
  { name: "floats and integers", args: { one: 1.0, tenth: 0.1, big: 1e21, small: 1e-7, neg: -2.5, e16: 1e16, tiny: 0.0000015 } },
  { name: "negative zero", args: { z: -0 } },
  { name: "integer beyond 2^53", args: JSON.parse('{"id": 12345678901234567890}') as unknown },
  { name: "NFC strings", args: { city: "Zu\u0308rich", "e\u0301": "caf\u00e9" } },
  { name: "astral key order", args: { "\u{1F600}": 1, "\uFFFF": 2, a: 3 } },
  { name: "control characters", args: { text: "line\nbreak\ttab\u0001\u007f \"quoted\" back\\slash" } },
  { name: "arrays", args: { items: [3, "two", null, [1, { b: 2, a: 1 }]] } },
  { name: "string", args: "just text" },
  { name: "booking", args: { booking_id: "bk_42", amount: 120.5, currency: "EUR", guests: [{ name: "Ada" }, { name: "Grace" }] } },
];

const span = { type: "tool_call_span", id: "s1", run_id: "r1", call_id: "c1", tool: "search", attempt: 1, started_at: 1764800000000, ended_at: 1764800000001, outcome: "failed" };

/** Records with fields past the wire bounds: the exporters cut them the same way before sending. */
export const CLAMP_INPUTS: { name: string; record: Record<string, unknown> }[] = [
  { name: "fits as it is", record: span },
  { name: "a tool name a model invented, 300 characters", record: { ...span, tool: `lookup_${"x".repeat(293)}` } },
  { name: "a 200-character call id and a control character in the code", record: { ...span, call_id: `toolu_${"a1".repeat(97)}`, code: "bad\ncode" } },
  { name: "free text over 16 KiB", record: { ...span, message: "m".repeat(17_000) } },
  { name: "a blank tool name", record: { ...span, tool: "   " } },
  { name: "a long non-ASCII release", record: { ...span, release: "版本".repeat(40) } },
];

export const SCRUB_INPUTS: string[] = [
  "upstream said: password=hunter2 while connecting",
  "Authorization: Bearer abcDEF123456ghiJKL",
  "authorization: missing",
  "[Bearer AbCdEfGhIjKlMnOp]",
  "headers={Authorization: Bearer AbCdEfGhIjKlMnOp}",
  "[Authorization: AbCdEfGhIjKlMnOp]",
  "[Authorization: missing]",
  "the Basic plan costs 10 euros",
  "postgres://admin:s3cretPass@db.internal:5432/app failed",
  "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk expired",
  "key sk-ant-api03-abcdefghijklmnopqrstuv was revoked",
  "OpenAI rejected sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX",
  "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc declined",
  "github token ghp_abcdefghijklmnopqrstuvwxyz0123456789 invalid",
  "AKIAIOSFODNN7EXAMPLE is not allowed",
  "send to ada.lovelace@example.com please",
  "IBAN DE89370400440532013000 was rejected",
  "card 4111 1111 1111 1111 declined",
  "card 4111111111111111 declined",
  "order 1234567890123 shipped",
  "trace 4bf92f3577b34da6a3ce929d0e0e4736 failed",
  "session=0123456789abcdef0123456789abcdef ended",
  '{"api_key": "abc123def456", "next_page_token": "CAESBggBEAIYAQ"}',
  "Unexpected token: '}' in JSON",
  "x-api-key: zzz999yyy888",
  "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY----- leaked",
  "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX posted",
  "Zürich café: müller@exämple.de called",
  "plain text without secrets, amount 5 105 105 105 105 100",
];

/** An exception class hierarchy, rules and thrown values, described so both languages can build them. */
export const ERROR_MAP = {
  classes: { HttpError: null, RateLimited: "HttpError", Forbidden: "HttpError", CardDeclined: null, Timeout: null } as Record<string, string | null>,
  rules: {
    HttpError: { kind: "failure", code: "upstream_http", transient: false },
    RateLimited: { kind: "failure", code: "rate_limited", transient: true, retry_after_ms: 2000 },
    CardDeclined: { kind: "refusal", code: "card_declined", message: "the card was declined" },
  } as Record<string, { kind: "failure" | "refusal"; code: string; transient?: boolean; retry_after_ms?: number; message?: string }>,
  statuses: {
    "503": { kind: "failure", code: "upstream_unavailable", transient: true, retry_after_ms: 1500 },
    "404": { kind: "failure", code: "not_found_upstream", transient: false, message: "the record does not exist" },
  } as Record<string, { kind: "failure" | "refusal"; code: string; transient?: boolean; retry_after_ms?: number; message?: string }>,
  cases: [
    { name: "exact class", raise: { class: "RateLimited", message: "slow down" } },
    { name: "most specific class wins over its base", raise: { class: "RateLimited", message: "slow down", status: 404 } },
    { name: "base class rule", raise: { class: "Forbidden", message: "no access for token=abc123def456" } },
    { name: "refusal rule", raise: { class: "CardDeclined", message: "insufficient funds" } },
    { name: "status rule when no class matched", raise: { class: "Timeout", message: "gateway", status: 503 } },
    { name: "status rule replaces the message", raise: { class: "Timeout", message: "gone", status: 404 } },
    { name: "class rule beats status rule", raise: { class: "HttpError", message: "boom", status: 503 } },
    { name: "unmapped", raise: { class: "Timeout", message: "took too long, password=hunter2" } },
    { name: "unmapped with unknown status", raise: { class: "Timeout", message: "teapot", status: 418 } },
  ],
};

type RuleSpec = (typeof ERROR_MAP.rules)[string];

function rule(spec: RuleSpec): ToolErrorRule {
  if (spec.kind === "refusal") return refusal(spec.code, spec.message ?? "");
  if (spec.transient) return transient(spec.code, { ...(spec.retry_after_ms === undefined ? {} : { retryAfterMs: spec.retry_after_ms }), ...(spec.message ? { message: spec.message } : {}) });
  return permanent(spec.code, spec.message ? { message: spec.message } : {});
}

function buildClasses(): Map<string, new (message: string) => Error> {
  const classes = new Map<string, new (message: string) => Error>();
  for (const [name, parent] of Object.entries(ERROR_MAP.classes)) {
    const base = parent ? classes.get(parent)! : Error;
    classes.set(name, { [name]: class extends base {} }[name]!);
  }
  return classes;
}

export function errorOf(error: ToolError) {
  return { error_class: error.errorClass, code: error.code, retryable: error.retryable, retry_after_ms: error.retryAfterMs ?? null, detail: error.detail };
}

export function errorMapResults() {
  const classes = buildClasses();
  const map = new ToolErrorMap(
    Object.entries(ERROR_MAP.rules).map(([cls, spec]) => [classes.get(cls)!, rule(spec)] as const),
    { statuses: Object.fromEntries(Object.entries(ERROR_MAP.statuses).map(([s, spec]) => [Number(s), rule(spec)])) },
  );
  return ERROR_MAP.cases.map((c) => {
    const thrown = new (classes.get(c.raise.class)!)(c.raise.message) as Error & { status?: number };
    if (c.raise.status !== undefined) thrown.status = c.raise.status;
    return { ...c, expected: errorOf(map.classify(thrown, { tool: "book" })) };
  });
}

/** A taxonomy error described as data. */
export type ErrorSpec =
  | { class: "ToolFailure"; code: string; message?: string; transient?: boolean; retry_after_ms?: number }
  | { class: "ToolRefusal"; code: string; message: string }
  | { class: "ToolTimedOutError"; timeout_ms?: number; retryable?: boolean; retry_after_ms?: number };

export function buildError(tool: string, spec: ErrorSpec): ToolError {
  switch (spec.class) {
    case "ToolFailure":
      return new ToolFailure(tool, spec.code, { ...(spec.message ? { message: spec.message } : {}), transient: spec.transient ?? false, ...(spec.retry_after_ms === undefined ? {} : { retryAfterMs: spec.retry_after_ms }) });
    case "ToolRefusal":
      return new ToolRefusal(tool, spec.code, spec.message);
    case "ToolTimedOutError":
      return new ToolTimedOutError(tool, { ...(spec.timeout_ms === undefined ? {} : { timeoutMs: spec.timeout_ms }), retryable: spec.retryable ?? false, ...(spec.retry_after_ms === undefined ? {} : { retryAfterMs: spec.retry_after_ms }) });
  }
}

export const DECISION_CASES: { name: string; error: ErrorSpec; attempt: number; idempotent?: boolean; tool_retries_used?: number; max_tool_attempts?: number; now?: number; deadline_at?: number; policy?: "surface_to_model" | "fail_run"; random: number; retry?: Record<string, number> }[] = [
  { name: "transient retried with jitter", error: { class: "ToolFailure", code: "upstream_unavailable", transient: true }, attempt: 1, random: 0.5 },
  { name: "second retry window doubles", error: { class: "ToolFailure", code: "upstream_unavailable", transient: true }, attempt: 2, random: 0.999 },
  { name: "retry_after honoured", error: { class: "ToolFailure", code: "rate_limited", transient: true, retry_after_ms: 2500 }, attempt: 1, random: 0.1 },
  { name: "retry_after over the cap fails closed", error: { class: "ToolFailure", code: "rate_limited", transient: true, retry_after_ms: 120000 }, attempt: 1, random: 0.1 },
  { name: "permanent surfaced", error: { class: "ToolFailure", code: "card_expired", message: "the card expired" }, attempt: 1, random: 0.5 },
  { name: "permanent under fail_run", error: { class: "ToolFailure", code: "card_expired" }, attempt: 1, random: 0.5, policy: "fail_run" },
  { name: "refusal delivered", error: { class: "ToolRefusal", code: "outside_policy", message: "refunds over 500 EUR need a human" }, attempt: 1, random: 0.5 },
  { name: "exhausted", error: { class: "ToolFailure", code: "upstream_unavailable", transient: true }, attempt: 3, random: 0.5 },
  { name: "budget capped", error: { class: "ToolFailure", code: "upstream_unavailable", transient: true }, attempt: 1, tool_retries_used: 12, random: 0.5 },
  { name: "past the deadline", error: { class: "ToolFailure", code: "upstream_unavailable", transient: true, retry_after_ms: 900 }, attempt: 1, now: 1_000, deadline_at: 1_500, random: 0.5 },
  { name: "timeout not retried unless idempotent", error: { class: "ToolTimedOutError", timeout_ms: 5000 }, attempt: 1, random: 0.5 },
  { name: "timeout retried when idempotent", error: { class: "ToolTimedOutError", timeout_ms: 5000 }, attempt: 1, idempotent: true, random: 0.25 },
  { name: "custom policy", error: { class: "ToolFailure", code: "flaky", transient: true }, attempt: 4, random: 0.75, retry: { maxAttempts: 6, baseDelayMs: 100, multiplier: 3, maxDelayMs: 2000, maxRetryAfterMs: 10000 } },
];

export function decisionResults() {
  return DECISION_CASES.map((c) => {
    const retry = retryOptions(c.retry ?? {});
    const error = buildError("book", c.error);
    const verdict = decide({
      error, idempotent: c.idempotent ?? false, attempt: c.attempt, toolRetriesUsed: c.tool_retries_used ?? 0, maxToolAttempts: c.max_tool_attempts ?? 12,
      retry, now: c.now ?? 0, deadlineAt: c.deadline_at, policy: c.policy ?? "surface_to_model", random: () => c.random,
    });
    const told = verdict.decision === "retried" ? null : toldText(error, { stop: verdict.stop, attempts: c.attempt, retry, retryAfterMs: verdict.retryAfterMs });
    return { ...c, expected: { decision: verdict.decision, backoff_ms: verdict.decision === "retried" ? verdict.backoffMs : null, retry_after_ms: verdict.retryAfterMs ?? null, stop: verdict.decision === "retried" ? null : verdict.stop, told } };
  });
}

/** A scripted run: tools that fail or succeed per attempt, and the calls the model makes. */
export const SCRIPTED_RUN = {
  agent: "support-agent",
  release: "2026.12.1",
  environment: "test",
  clock: 1_764_800_000_000,
  random: 0.5,
  tools: {
    search_flights: { idempotent: true, attempts: [{ raise: { class: "ToolFailure", code: "upstream_unavailable", transient: true, message: "503 from the GDS" } }, { return: { flights: ["LH123", "BA456"] } }] },
    book_flight: { idempotent: false, attempts: [{ raise: { class: "ToolFailure", code: "rate_limited", transient: true, retry_after_ms: 1200 } }, { raise: { class: "ToolFailure", code: "fare_expired", message: "the fare expired; search again" } }] },
    refund: { idempotent: false, attempts: [{ raise: { class: "ToolRefusal", code: "outside_policy", message: "refunds over 500 EUR need a human" } }] },
    lookup_booking: { idempotent: true, attempts: [{ return: "booking bk_42: confirmed" }] },
  } as Record<string, { idempotent: boolean; attempts: ({ raise: ErrorSpec } | { return: unknown })[] }>,
  turns: [
    [{ call_id: "toolu_01", tool: "search_flights", args: { from: "FRA", to: "LHR", date: "2026-12-24" } }],
    [{ call_id: "toolu_02", tool: "book_flight", args: { flight: "LH123", passenger: "Ada" } }, { call_id: "toolu_03", tool: "lookup_booking", args: { id: "bk_42" } }],
    [{ call_id: "toolu_04", tool: "refund", args: { booking: "bk_42", amount: 900 } }],
    [{ call_id: "toolu_05", tool: "cancel_everything", args: {} }],
    [{ call_id: "toolu_06", tool: "search_flights", args: { to: "LHR", from: "FRA", date: "2026-12-24" } }, { call_id: "toolu_07", tool: "lookup_booking", args: { id: "bk_43" }, unanswered: true }],
  ],
};

/** Fresh tools of {@link SCRIPTED_RUN}: each fails or returns per attempt as scripted. */
export function scriptedTools() {
  const counters = new Map<string, number>();
  return Object.entries(SCRIPTED_RUN.tools).map(([name, spec]) =>
    defineTool({
      name,
      idempotent: spec.idempotent,
      execute: async () => {
        const n = counters.get(name) ?? 0;
        counters.set(name, n + 1);
        const step = spec.attempts[Math.min(n, spec.attempts.length - 1)]!;
        if ("raise" in step) throw buildError(name, step.raise);
        return step.return;
      },
    }),
  );
}

/** Runs {@link SCRIPTED_RUN} through the TypeScript run loop: the records and what the model was told. */
export async function scriptedRunRecords(): Promise<{ records: IngestRecord[]; told: (string | null)[] }> {
  const sink = new MemorySink();
  const tools = scriptedTools();
  const runner = new ToolRunner({
    agent: SCRIPTED_RUN.agent, release: SCRIPTED_RUN.release, environment: SCRIPTED_RUN.environment, tools, sink,
    ids: sequentialIds(), clock: { now: () => SCRIPTED_RUN.clock }, random: () => SCRIPTED_RUN.random, sleep: async () => {},
  });
  const run = runner.startRun();
  const told: (string | null)[] = [];
  for (const turn of SCRIPTED_RUN.turns) {
    run.modelTurn(turn.map((c) => c.call_id));
    for (const c of turn) {
      if ("unanswered" in c) continue;
      const result = await run.call({ callId: c.call_id, tool: c.tool, args: c.args });
      told.push(result.status === "ok" ? null : result.told);
    }
  }
  run.end("completed");
  return { records: sink.records, told };
}

export { argsHash, canonicalArgs, scrubText };
