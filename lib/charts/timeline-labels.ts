/**
 * Words for outcomes and decisions. Declined (the tool said no) and refused (the permission layer
 * said no) never share a word; their colours live in components/runs/runs.module.css.
 */
export const OUTCOME_LABELS: Record<string, string> = {
  ok: "ok",
  failed: "failed",
  declined: "declined",
  refused: "refused",
  not_found: "not found",
  timed_out: "timed out",
  invalid_arguments: "invalid args",
  result_rejected: "result rejected",
  cancelled: "cancelled",
};

export const DECISION_LABELS: Record<string, string> = {
  retried: "retried",
  surfaced: "surfaced to the model",
  delivered: "delivered as a refusal",
  failed_run: "failed the run",
  failed_closed: "failed closed",
  exhausted: "attempts exhausted",
  budget_capped: "budget capped",
  cancelled: "cancelled",
};

/** A stored value Faultline has no word for is shown as stored, never dropped. */
export const outcomeLabel = (outcome: string | null): string =>
  outcome === null ? "outcome unknown" : (OUTCOME_LABELS[outcome] ?? outcome);

export const decisionLabel = (decision: string): string => DECISION_LABELS[decision] ?? decision;

/** `1.2 s`, `340 ms`, `2 min 5 s`: durations at the precision a timeline needs. */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? "−" : "";
  const a = Math.abs(ms);
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${(a / 1000).toFixed(a < 10_000 ? 2 : 1).replace(/\.?0+$/, "")} s`;
  const min = Math.floor(a / 60_000);
  const s = Math.round((a % 60_000) / 1000);
  return `${sign}${min} min${s ? ` ${s} s` : ""}`;
}

/** Offsets on the time axis: `+1.2 s`, `−200 ms`. */
export const formatOffset = (ms: number): string => (ms > 0 ? `+${formatDuration(ms)}` : formatDuration(ms));

/** Why an attempt is marked; each flag is shown in words next to the attempt. */
export const FLAG_LABELS: Record<string, string> = {
  attempt_unknown: "attempt number unknown",
  attempt_duplicate: "same attempt number recorded twice",
  missing_before: "earlier attempt numbers never arrived",
  starts_before_previous_end: "starts before the previous attempt ended (clocks disagree)",
  ends_before_start: "ends before it starts (clocks disagree)",
  before_run_start: "starts before the run started",
  after_run_end: "ends after the run ended",
};
