import { OUTCOMES } from "@/lib/contracts/enums";
import { outcomeVar } from "./palette";

/**
 * How each outcome is drawn. Declined (the tool said no) and refused (permission said no) differ in
 * word, colour and fill pattern, so they stay apart even without colour.
 */
export const OUTCOME_STYLE: Record<string, { label: string; color: string; pattern?: "hatch" | "dots" }> = {
  ok: { label: "ok", color: outcomeVar("ok") },
  failed: { label: "failed", color: outcomeVar("failed") },
  declined: { label: "declined (tool said no)", color: outcomeVar("declined"), pattern: "dots" },
  refused: { label: "refused (permission said no)", color: outcomeVar("refused"), pattern: "hatch" },
  not_found: { label: "not found", color: outcomeVar("not_found") },
  timed_out: { label: "timed out", color: outcomeVar("timed_out") },
  invalid_arguments: { label: "invalid arguments", color: outcomeVar("invalid_arguments") },
  result_rejected: { label: "result rejected", color: outcomeVar("result_rejected") },
  cancelled: { label: "cancelled", color: outcomeVar("cancelled") },
  "": { label: "unknown outcome", color: outcomeVar("unknown") },
};

export const outcomeStyle = (outcome: string) => OUTCOME_STYLE[outcome] ?? { label: outcome, color: outcomeVar("unknown") };

/** Outcomes in legend order (ok first, then the failure kinds), unknown last. */
export const OUTCOME_ORDER: readonly string[] = [...OUTCOMES, ""];
