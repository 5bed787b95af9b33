// Runs in which an error is surfaced to the model and the agent then does one known thing next, as
// native wire records: the answers of the told classification are known by construction.
import type { ToldStep } from "@/lib/contracts/told";

export const HASH_A = "aaaaaaaaaaaaaaaa";
export const HASH_B = "bbbbbbbbbbbbbbbb";

export interface ToldRunSpec {
  runId: string;
  /** The agent release every record carries. */
  release: string;
  tool: string;
  code: string;
  told: string;
  /** What the agent does after being told. */
  next: ToldStep;
  /** The run's start, epoch ms. */
  at: number;
  /** The other tool of a `replaced` run. */
  otherTool?: string;
}

/** The records of one told run, in three pieces that may arrive in any order: the error, the next call, the run's end. */
export interface ToldRunRecords {
  error: Record<string, unknown>[];
  next: Record<string, unknown>[];
  end: Record<string, unknown>[];
}

const span = (s: ToldRunSpec, id: string, callId: string, tool: string, start: number, outcome: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_call_span", id: `${s.runId}-${id}`, run_id: s.runId, call_id: callId, tool, attempt: 1, started_at: start, ended_at: start + 40,
  outcome, release: s.release, ...extra,
});

/** The native records of a told run whose next step is `spec.next`. */
export function toldRunRecords(s: ToldRunSpec): ToldRunRecords {
  const c1 = `${s.runId}-c1`;
  const c2 = `${s.runId}-c2`;
  const failing = { code: s.code, error_class: "ToolFailure", retryable: false, decision: "surfaced" };
  const error = [
    { type: "run", id: `${s.runId}-start`, run_id: s.runId, agent: "told-agent", agent_version: s.release, started_at: s.at, state: "running", release: s.release },
    span(s, "s1", c1, s.tool, s.at + 10, "failed", { ...failing, ...(s.next === "unknown" ? {} : { args_hash: HASH_A }) }),
    {
      type: "tool_error", id: `${s.runId}-e1`, run_id: s.runId, call_id: c1, tool: s.tool, code: s.code, error_class: "ToolFailure", retryable: false,
      attempts: 1, decision: "surfaced", told: s.told, occurred_at: s.at + 50, release: s.release,
    },
  ];
  const nextCall: Record<string, Record<string, unknown>[]> = {
    recovered: [span(s, "s2", c2, s.tool, s.at + 300, "ok", { args_hash: HASH_B, after_error: c1 })],
    replaced: [span(s, "s2", c2, s.otherTool ?? "fallback_tool", s.at + 300, "ok", { args_hash: HASH_B, after_error: c1 })],
    repeated: [span(s, "s2", c2, s.tool, s.at + 300, "failed", { ...failing, args_hash: HASH_A })],
    changed_failed: [span(s, "s2", c2, s.tool, s.at + 300, "failed", { ...failing, args_hash: HASH_B })],
    unknown: [span(s, "s2", c2, s.tool, s.at + 300, "failed", failing)],
  };
  const state = s.next === "run_failed" ? "failed" : "completed";
  return {
    error,
    next: nextCall[s.next] ?? [],
    end: s.next === "pending" ? [] : [{ type: "run", id: `${s.runId}-end`, run_id: s.runId, agent: "told-agent", started_at: s.at, ended_at: s.at + 1000, state, release: s.release }],
  };
}

/** Every record of a told run, in the order the runtime would send them. */
export const allRecords = (s: ToldRunSpec) => {
  const r = toldRunRecords(s);
  return [...r.error, ...r.next, ...r.end];
};
