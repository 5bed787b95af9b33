import type { TimelineCall } from "@/lib/contracts/runs";
import { decisionLabel, outcomeLabel } from "./timeline-labels";
import type { AttemptBar, FinalDecision } from "./timeline-types";

/**
 * How a call ended, in words: the final tool error's decision when one arrived, else the last
 * span's decision, else what the outcomes imply.
 */
export function finalDecision(call: Pick<TimelineCall, "error">, bars: readonly Pick<AttemptBar, "decision" | "outcome">[], retries: number): FinalDecision {
  const fromError = call.error?.decision;
  if (fromError) return { kind: fromError, label: decisionLabel(fromError), source: "tool_error" };
  const last = bars[bars.length - 1];
  const fromSpan = last?.decision;
  if (fromSpan) {
    // A last attempt that says "retried" means the next attempt never arrived.
    const label = fromSpan === "retried" ? "retried; next attempt not recorded" : decisionLabel(fromSpan);
    return { kind: fromSpan, label, source: "span" };
  }
  if (last?.outcome === "ok") {
    if (retries > 0) {
      return { kind: "succeeded_after_retries", label: `succeeded after ${retries} ${retries === 1 ? "retry" : "retries"}`, source: "derived" };
    }
    return { kind: "ok", label: "ok", source: "derived" };
  }
  if (last && last.outcome !== null) {
    return { kind: "no_decision", label: `${outcomeLabel(last.outcome)}; no decision recorded`, source: "derived" };
  }
  return { kind: "unknown", label: "outcome unknown", source: "derived" };
}
