import { LIMITS, type ErrorClass, type Outcome } from "../../contracts";
import type { LocalExperiment } from "../experiments/wording-set";

/** Options every taxonomy error accepts. */
export interface ToolErrorOptions {
  /** Human text for the model and the records; scrubbed before it leaves the process. */
  message?: string;
  /** The underlying error, kept for debugging; never exported. */
  cause?: unknown;
  /**
   * Several told wordings of this code to compare ({@link defineExperiment}): one replaces `message`
   * in what the model is told, per run. Never changes the code, class, retryable flag or decision.
   */
  experiment?: LocalExperiment | undefined;
}

/** Options of the internal base constructor. */
export interface ToolErrorInit extends ToolErrorOptions {
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

// A code is public API: it must survive the wire contract unchanged, so it is checked here,
// where the author can still fix it, rather than rejected later by the server.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Throws a `TypeError` (mentioning "code") unless `code` is a usable stable error code. */
export function assertCode(code: unknown): asserts code is string {
  if (typeof code !== "string" || code.trim() === "") {
    let shown: string;
    try {
      shown = JSON.stringify(code) ?? typeof code;
    } catch {
      shown = typeof code;
    }
    throw new TypeError(`a tool error needs a non-empty code; got ${shown}`);
  }
  if (code.length > LIMITS.maxCodeLength || CONTROL.test(code)) {
    throw new TypeError(`code must be at most ${LIMITS.maxCodeLength} characters without control characters`);
  }
}

/** Throws unless `ms` is absent or a finite number of milliseconds >= 0; `name` is used in the message. */
export function assertDelayMs(ms: unknown, name = "retryAfterMs"): asserts ms is number | undefined {
  if (ms === undefined) return;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
    throw new TypeError(`${name} must be a finite number of milliseconds >= 0; got ${String(ms)}`);
  }
}

/**
 * Throws a `TypeError` when `options` carries one of the seconds-valued names this library used to
 * accept (`retryAfter`, `seconds`). They were removed so every duration is milliseconds; a caller
 * the compiler cannot check (plain JS, a spread object) would otherwise lose its wait silently, or
 * have it read 1000× too short. `renamed` maps each removed name to the one that replaced it.
 */
export function rejectRemovedOptions(options: object, renamed: Readonly<Record<string, string>>): void {
  for (const [old, now] of Object.entries(renamed)) {
    if ((options as Record<string, unknown>)[old] !== undefined) {
      throw new TypeError(`'${old}' (seconds) was removed: pass '${now}' in milliseconds`);
    }
  }
}

/**
 * Base of the tool-error taxonomy. Every member carries the tool name, a stable `code`,
 * `retryable` and an optional `retryAfterMs`. Use a subclass; the base is abstract.
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
  /** Milliseconds the tool or upstream asked to wait before another attempt; carried, never invented. */
  readonly retryAfterMs: number | undefined;
  /** The code-side wording experiment this error carries, if any. */
  readonly experiment: LocalExperiment | undefined;

  protected constructor(tool: string, code: string, init: ToolErrorInit) {
    assertCode(code);
    if (typeof tool !== "string" || tool.trim() === "") throw new TypeError("a tool error needs the tool name");
    assertDelayMs(init.retryAfterMs);
    const detail = init.message ?? "";
    super(detail ? `${tool}: ${code} — ${detail}` : `${tool}: ${code}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.tool = tool;
    this.code = code;
    this.detail = detail;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.experiment = init.experiment;
  }
}
