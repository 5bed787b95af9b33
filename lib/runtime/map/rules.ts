import { assertCode, assertDelayMs, rejectRemovedOptions, type ToolError } from "../errors/tool-error";
import { ToolFailure } from "../errors/tool-failure";
import { ToolRefusal } from "../errors/tool-refusal";
import type { LocalExperiment } from "../experiments/wording-set";

/** A wait in milliseconds, fixed or read from the error being translated (e.g. its `Retry-After`). */
export type RetryAfterSource = number | ((error: unknown) => number | undefined);

/** How one family of library errors translates into the taxonomy. Build with the helpers below. */
export interface ToolErrorRule {
  readonly kind: "failure" | "refusal";
  readonly code: string;
  readonly transient: boolean;
  /** Milliseconds to wait, fixed or read from the error. */
  readonly retryAfterMs?: RetryAfterSource;
  /** What the model may be told. When set it replaces the upstream text entirely. */
  readonly message?: string;
  /** Several wordings to compare in place of `message`, one per run (docs/experiments.md). */
  readonly experiment?: LocalExperiment;
}

/** Options of {@link transient}. */
export interface TransientRuleOptions {
  /** Milliseconds the upstream usually asks to wait, or a function reading them from the error. */
  retryAfterMs?: RetryAfterSource;
  /** Replaces the upstream text. */
  message?: string;
  /** Several wordings to compare in place of `message`, one per run ({@link defineExperiment}). */
  experiment?: LocalExperiment;
}

/** A failure worth retrying, optionally with the wait the upstream usually asks for. */
export function transient(code: string, options: TransientRuleOptions = {}): ToolErrorRule {
  assertCode(code);
  rejectRemovedOptions(options, { retryAfter: "retryAfterMs" });
  if (typeof options.retryAfterMs === "number") assertDelayMs(options.retryAfterMs);
  const wait = options.retryAfterMs;
  return Object.freeze({
    kind: "failure" as const,
    code,
    transient: true,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
    ...(options.message === undefined ? {} : { message: options.message }),
    ...(options.experiment === undefined ? {} : { experiment: options.experiment }),
  });
}

/** A failure that a repeat will not fix (or might repeat a side effect). */
export function permanent(code: string, options: { message?: string; experiment?: LocalExperiment } = {}): ToolErrorRule {
  assertCode(code);
  return Object.freeze({ kind: "failure" as const, code, transient: false, ...options });
}

/** The upstream's answer is "no": translated into a refusal carrying `message`. */
export function refusal(code: string, message: string, options: { experiment?: LocalExperiment } = {}): ToolErrorRule {
  assertCode(code);
  return Object.freeze({ kind: "refusal" as const, code, transient: false, message, ...options });
}

/** Applies `rule` to `error` raised by `tool`; `detail` is the already-scrubbed upstream text. */
export function applyRule(rule: ToolErrorRule, tool: string, detail: string, error: unknown): ToolError {
  if (rule.kind === "refusal") return new ToolRefusal(tool, rule.code, rule.message ?? "", { cause: error, experiment: rule.experiment });
  let retryAfterMs = typeof rule.retryAfterMs === "function" ? safeRetryAfter(rule.retryAfterMs, error) : rule.retryAfterMs;
  if (!rule.transient) retryAfterMs = undefined;
  return new ToolFailure(tool, rule.code, {
    transient: rule.transient,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    message: rule.message ?? detail,
    cause: error,
    experiment: rule.experiment,
  });
}

function safeRetryAfter(read: (error: unknown) => number | undefined, error: unknown): number | undefined {
  try {
    const value = read(error);
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  } catch {
    return undefined;
  }
}
