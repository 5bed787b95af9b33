import { assertCode, assertRetryAfter, type ToolError } from "../errors/tool-error";
import { ToolFailure } from "../errors/tool-failure";
import { ToolRefusal } from "../errors/tool-refusal";

/** A wait in seconds, fixed or read from the error being translated (e.g. its `Retry-After`). */
export type RetryAfterSource = number | ((error: unknown) => number | undefined);

/** How one family of library errors translates into the taxonomy. Build with the helpers below. */
export interface ToolErrorRule {
  readonly kind: "failure" | "refusal";
  readonly code: string;
  readonly transient: boolean;
  readonly retryAfter?: RetryAfterSource;
  /** What the model may be told. When set it replaces the upstream text entirely. */
  readonly message?: string;
}

/** A failure worth retrying, optionally with the wait the upstream usually asks for. */
export function transient(code: string, options: { retryAfter?: RetryAfterSource; message?: string } = {}): ToolErrorRule {
  assertCode(code);
  if (typeof options.retryAfter === "number") assertRetryAfter(options.retryAfter);
  return Object.freeze({ kind: "failure" as const, code, transient: true, ...options });
}

/** A failure that a repeat will not fix (or might repeat a side effect). */
export function permanent(code: string, options: { message?: string } = {}): ToolErrorRule {
  assertCode(code);
  return Object.freeze({ kind: "failure" as const, code, transient: false, ...options });
}

/** The upstream's answer is "no": translated into a refusal carrying `message`. */
export function refusal(code: string, message: string): ToolErrorRule {
  assertCode(code);
  return Object.freeze({ kind: "refusal" as const, code, transient: false, message });
}

/** Applies `rule` to `error` raised by `tool`; `detail` is the already-scrubbed upstream text. */
export function applyRule(rule: ToolErrorRule, tool: string, detail: string, error: unknown): ToolError {
  if (rule.kind === "refusal") return new ToolRefusal(tool, rule.code, rule.message ?? "", { cause: error });
  let retryAfter = typeof rule.retryAfter === "function" ? safeRetryAfter(rule.retryAfter, error) : rule.retryAfter;
  if (!rule.transient) retryAfter = undefined;
  return new ToolFailure(tool, rule.code, {
    transient: rule.transient,
    retryAfter,
    message: rule.message ?? detail,
    cause: error,
  });
}

function safeRetryAfter(read: (error: unknown) => number | undefined, error: unknown): number | undefined {
  try {
    const value = read(error);
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
