import { OUTCOMES } from "@/lib/contracts/enums";

/**
 * How each outcome is drawn. Declined (the tool said no) and refused (permission said no) differ in
 * word, colour and fill pattern, so they stay apart even without colour.
 */
export const OUTCOME_STYLE: Record<string, { label: string; color: string; pattern?: "hatch" | "dots" }> = {
  ok: { label: "ok", color: "var(--c-ok)" },
  failed: { label: "failed", color: "var(--c-failed)" },
  declined: { label: "declined (tool said no)", color: "var(--c-declined)", pattern: "dots" },
  refused: { label: "refused (permission said no)", color: "var(--c-refused)", pattern: "hatch" },
  not_found: { label: "not found", color: "var(--c-notfound)" },
  timed_out: { label: "timed out", color: "var(--c-timeout)" },
  invalid_arguments: { label: "invalid arguments", color: "var(--c-invalid)" },
  result_rejected: { label: "result rejected", color: "var(--c-rejected)" },
  cancelled: { label: "cancelled", color: "var(--c-cancelled)" },
  "": { label: "unknown outcome", color: "var(--c-unknown)" },
};

export const outcomeStyle = (outcome: string) => OUTCOME_STYLE[outcome] ?? { label: outcome, color: "var(--c-unknown)" };

/** Outcomes in legend order (ok first, then the failure kinds), unknown last. */
export const OUTCOME_ORDER: readonly string[] = [...OUTCOMES, ""];
