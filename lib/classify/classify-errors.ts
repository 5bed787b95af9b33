import { CLASS_OUTCOMES } from "@/lib/contracts/classification";
import type { ErrorClassified, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { classify, type Ruleset } from "./classify";
import { emitterFields, isClassifiable } from "./classify-rows";

/** The call's last failed attempt as classification left it: what its final error follows. */
export interface CallAttemptVerdict {
  /** The attempt's own code as the emitter sent it. */
  ownCode: string | null;
  /** The rule that set the attempt's code, null when none did; and the fields it set. */
  ruleId: string | null;
  ruleVersion: number | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
}

/** What a final error's verdict is: its fields, and the rule that set them. */
export interface ErrorVerdict extends ErrorClassified {
  ruleId: string | null;
  ruleVersion: number | null;
}

/** The emitter's own fields of a final error: its `prior` when a rule changed them, else the row's. */
export const errorOwn = (e: Pick<ToolErrorRow, "code" | "errorClass" | "retryable" | "classification">): ErrorClassified =>
  e.classification?.prior ?? { code: e.code, errorClass: e.errorClass, retryable: e.retryable };

/** A stored failed attempt as the job or an earlier request left it, with the ruleset revision it was classified at. */
export interface StoredAttemptVerdict extends CallAttemptVerdict {
  revision: number;
}

/** Whether a final error takes part in classification: every one but a native record's, whose code its contract requires. */
export const isClassifiableError = (e: Pick<ToolErrorRow, "source">): boolean => e.source !== "native";

/**
 * Classifies one final error from its emitter's own fields. It follows its call's last failed attempt
 * when that attempt carried the same emitter code (a rule coded the attempt: the error gets the same
 * code, class and retryable; no rule did: the error keeps its own). Without such an attempt it goes
 * through the rules like a span, its told text standing for the message (it has no attributes).
 */
export function classifyError(e: Pick<ToolErrorRow, "tool" | "told" | "occurredAt">, own: ErrorClassified, attempt: CallAttemptVerdict | null, ruleset: Ruleset): ErrorVerdict {
  if (attempt && attempt.ownCode === own.code) {
    if (attempt.ruleId === null) return { ...own, ruleId: null, ruleVersion: null };
    return { code: attempt.code, errorClass: attempt.errorClass, retryable: attempt.retryable, ruleId: attempt.ruleId, ruleVersion: attempt.ruleVersion };
  }
  const outcome = own.errorClass !== null && own.errorClass in CLASS_OUTCOMES ? CLASS_OUTCOMES[own.errorClass as keyof typeof CLASS_OUTCOMES] : "failed";
  const v = classify({ tool: e.tool, outcome, code: own.code, errorClass: own.errorClass, retryable: own.retryable, retryAfterMs: null, message: e.told, endedAt: e.occurredAt }, null, ruleset);
  return { code: v.code, errorClass: v.errorClass, retryable: v.retryable, ruleId: v.ruleId, ruleVersion: v.ruleVersion };
}

/** A call's key among a batch's or a chunk's attempts. */
export const callKey = (runId: string, callId: string, tool: string): string => `${runId}\u0000${callId}\u0000${tool}`;

/** A classified span as the attempt a final error follows. */
const attemptOf = (row: SpanRow): CallAttemptVerdict => ({
  ownCode: emitterFields(row).code, ruleId: row.classification?.ruleId ?? null, ruleVersion: row.classification?.ruleVersion ?? null,
  code: row.code, errorClass: row.errorClass, retryable: row.retryable,
});

/** Of spans already classified, the last failed attempt of each call (latest start, then latest end). */
export function lastFailedAttempts(spans: readonly { row: SpanRow }[]): Map<string, CallAttemptVerdict> {
  const out = new Map<string, { at: [number, number]; row: SpanRow }>();
  for (const { row } of spans) {
    if (!isClassifiable(row.outcome) || !row.classification) continue;
    const key = callKey(row.runId, row.callId, row.tool);
    const seen = out.get(key);
    if (seen && (seen.at[0] > row.startedAt || (seen.at[0] === row.startedAt && seen.at[1] >= row.endedAt))) continue;
    out.set(key, { at: [row.startedAt, row.endedAt], row });
  }
  return new Map([...out].map(([key, { row }]) => [key, attemptOf(row)]));
}

/** Applies a verdict to a final error in place, keeping the emitter's fields in `classification.prior` when a rule changed them. */
export function applyErrorVerdict(e: ToolErrorRow, v: ErrorVerdict, own: ErrorClassified, revision: number): void {
  e.code = v.code;
  e.errorClass = v.errorClass;
  e.retryable = v.retryable;
  e.classification = { ruleId: v.ruleId, ruleVersion: v.ruleVersion, prior: v.ruleId === null ? null : own, revision };
}

/**
 * Classifies a batch's final errors at ingest, in place, after its spans (classifyRows): each follows
 * the span it was derived from (in the batch, else as `stored` by an earlier request: a told error
 * answering an earlier call), else its call's last failed attempt of the batch, else the rules. A native record's final error keeps
 * the code its contract requires, like its spans.
 */
export function classifyErrorRows(
  batch: { spans: readonly { row: SpanRow }[]; toolErrors: readonly { row: ToolErrorRow }[] },
  ruleset: Ruleset,
  stored: ReadonlyMap<string, StoredAttemptVerdict> = new Map(),
): void {
  if (batch.toolErrors.length === 0) return;
  const attempts = lastFailedAttempts(batch.spans);
  // A told error derived from a span (OTLP, lib/ingest/otlp/told-errors.ts) follows that span.
  const bySpan = new Map(batch.spans.filter(({ row }) => row.classification).map(({ row }) => [row.spanId, row]));
  for (const { row } of batch.toolErrors) {
    if (!isClassifiableError(row)) continue;
    const own = errorOwn(row);
    const from = row.fromSpanId === undefined ? undefined : bySpan.get(row.fromSpanId);
    const earlier = from || row.fromSpanId === undefined ? undefined : stored.get(row.fromSpanId);
    const attempt = from ? attemptOf(from) : (earlier ?? attempts.get(callKey(row.runId, row.callId, row.tool)) ?? null);
    // Following an attempt classified at an older revision, the error is as far behind as it: the
    // re-classification job brings it up to date after the attempt.
    applyErrorVerdict(row, classifyError(row, own, attempt, ruleset), own, Math.min(ruleset.revision, earlier?.revision ?? ruleset.revision));
  }
}
