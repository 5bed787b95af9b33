import type { SpanRow } from "@/lib/ingest/rows";
import { classify, CLASSIFIED_OUTCOMES, type Classified, type Ruleset, type Verdict } from "./classify";

/** The emitter's own classified fields of a span: its `prior` when a rule changed them, else the span's. */
export function emitterFields(row: Pick<SpanRow, "code" | "errorClass" | "retryable" | "outcome" | "retryAfterMs" | "classification">): Classified {
  return row.classification?.prior ?? { code: row.code, errorClass: row.errorClass, retryable: row.retryable, outcome: row.outcome, retryAfterMs: row.retryAfterMs };
}

/** Whether a span takes part in classification: it failed or was refused. */
export const isClassifiable = (outcome: string | null): boolean => outcome !== null && CLASSIFIED_OUTCOMES.has(outcome);

/**
 * Applies a verdict to a span in place, keeping the emitter's fields in `classification.prior` when a
 * rule changed them.
 */
export function applyVerdict(row: SpanRow, verdict: Verdict, own: Classified, revision: number): void {
  row.code = verdict.code;
  row.errorClass = verdict.errorClass;
  row.retryable = verdict.retryable;
  row.outcome = verdict.outcome;
  row.retryAfterMs = verdict.retryAfterMs;
  row.classification = { ruleId: verdict.ruleId, ruleVersion: verdict.ruleVersion, groupKey: verdict.groupKey, prior: verdict.ruleId === null ? null : own, revision };
}

/**
 * Classifies a batch's failed and refused spans at ingest, in place. A native record's code is
 * required by its contract and is kept whatever the rules say.
 */
export function classifyRows(spans: readonly { row: SpanRow }[], ruleset: Ruleset): void {
  for (const { row } of spans) {
    if (!isClassifiable(row.outcome)) continue;
    const own = emitterFields(row);
    const verdict =
      row.source === "native" && own.code !== null ? null
      : classify(
          { code: own.code, errorClass: own.errorClass, retryable: own.retryable, outcome: own.outcome, retryAfterMs: own.retryAfterMs, tool: row.tool, message: row.message, endedAt: row.endedAt },
          row.facts ?? null,
          ruleset,
        );
    if (verdict) applyVerdict(row, verdict, own, ruleset.revision);
    else row.classification = { ruleId: null, ruleVersion: null, groupKey: null, prior: null, revision: ruleset.revision };
  }
}
