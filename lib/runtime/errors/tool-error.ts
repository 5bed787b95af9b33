import { LIMITS, type ErrorClass, type Outcome } from "../../contracts";

/** Options every taxonomy error accepts. */
export interface ToolErrorOptions {
  /** Human text for the model and the records; scrubbed before it leaves the process. */
  message?: string;
  /** The underlying error, kept for debugging; never exported. */
  cause?: unknown;
}

/** Options of the internal base constructor. */
export interface ToolErrorInit extends ToolErrorOptions {
  retryable: boolean;
  retryAfter?: number | undefined;
}

// A code is public API: it must survive the wire contract unchanged, so it is checked here,
// where the author can still fix it, rather than rejected later by the server.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Throws a `TypeError` (mentioning "code") unless `code` is a usable stable error code. */
export function assertCode(code: unknown): asserts code is string {
  if (typeof code !== "string" || code.trim() === "") {
    throw new TypeError(`a tool error needs a non-empty code; got ${JSON.stringify(code) ?? String(code)}`);
  }
  if (code.length > LIMITS.maxCodeLength || CONTROL.test(code)) {
    throw new TypeError(`code must be at most ${LIMITS.maxCodeLength} characters without control characters`);
  }
}

/** Throws unless `retryAfter` (seconds) is absent or a finite non-negative number. */
export function assertRetryAfter(retryAfter: unknown): asserts retryAfter is number | undefined {
  if (retryAfter === undefined) return;
  if (typeof retryAfter !== "number" || !Number.isFinite(retryAfter) || retryAfter < 0) {
    throw new TypeError(`retryAfter must be a finite number of seconds >= 0; got ${String(retryAfter)}`);
  }
}

/**
 * Base of the tool-error taxonomy. Every member carries the tool name, a stable `code`,
 * `retryable` and an optional `retryAfter` in seconds. Use a subclass; the base is abstract.
 */
export abstract class ToolError extends Error {
  /** Taxonomy class name, as recorded on the wire. */
  abstract readonly errorClass: ErrorClass;
  /** Per-attempt outcome this error produces. */
  abstract readonly outcome: Outcome;
  /** Brand that survives duplicate installs and realms (see {@link isToolError}). */
  readonly isFaultlineToolError = true as const;
  /** Name of the tool that raised (or was refused). */
  readonly tool: string;
  /** Stable, machine-readable code; public API. */
  readonly code: string;
  /** Author or upstream text, without the tool/code prefix. May be empty. */
  readonly detail: string;
  /** The error's own claim that repeating the call is safe and could succeed. */
  readonly retryable: boolean;
  /** Seconds the tool or upstream asked to wait before another attempt; carried, never invented. */
  readonly retryAfter: number | undefined;

  protected constructor(tool: string, code: string, init: ToolErrorInit) {
    assertCode(code);
    if (typeof tool !== "string" || tool.trim() === "") throw new TypeError("a tool error needs the tool name");
    assertRetryAfter(init.retryAfter);
    const detail = init.message ?? "";
    super(detail ? `${tool}: ${code} — ${detail}` : `${tool}: ${code}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.tool = tool;
    this.code = code;
    this.detail = detail;
    this.retryable = init.retryable;
    this.retryAfter = init.retryAfter;
  }
}
