import type { ToldStep } from "@/lib/contracts/told";

/** Each next step in words, as the timeline's description and the panel's legend say it. */
export const TOLD_STEP_LABELS: Record<ToldStep, string> = {
  recovered: "recovered",
  replaced: "replaced by another tool",
  repeated: "repeated the same call",
  changed_failed: "changed the call, failed again",
  unknown: "called again, failed (repeat unknown)",
  gave_up: "gave up",
  run_failed: "run failed",
  pending: "pending (run still open)",
};
