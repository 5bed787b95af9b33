// Parsers for the free-text `detail` of the reference kit's run events (adk-tool-errors.md §4.2).
// The kit carries no structured code or attempt number there, so these read only what its
// templates put in; text that fits no template is returned as text, never interpreted.

/** A code as the kit's templates print it: one token, no spaces or quotes. */
const CODE = "[A-Za-z0-9_.\\-]+";
const TYPED = new RegExp(`^(${CODE})(?:: ([\\s\\S]*))?$`);
const REFUSAL = new RegExp(`^(${CODE}): ([\\s\\S]*)$`);
const ATTEMPT_FAILED = /^attempt (\d{1,6}): ([\s\S]*) \u2014 retrying in (\d{1,9}(?:\.\d{1,9})?)s$/;
const AFTER_ATTEMPTS = / after (\d{1,6}) attempts$/;
const NOT_IDEMPOTENT = "; not declared idempotent, so it was not tried again";
const NEVER_DISPATCHED = "never dispatched: ";
const STOPPED_IDEMPOTENT = "stopped before it returned; declared idempotent, so safe to retry";

export type ToolErrorDetail =
  /** `<code>` or `<code>: <message>`, optionally `after N attempts`. */
  | { variant: "typed"; code: string; message: string | null; attempts: number | null }
  /** An untyped failure's (scrubbed) text; `notIdempotent` when the kit said why it was not retried. */
  | { variant: "text"; text: string; attempts: number | null; notIdempotent: boolean }
  | { variant: "never_dispatched"; reason: string }
  | { variant: "stopped_idempotent" }
  | { variant: "empty" };

/** Reads a `tool_error` detail. */
export function parseToolErrorDetail(detail: string | null): ToolErrorDetail {
  if (detail === null || detail === "") return { variant: "empty" };
  if (detail.startsWith(NEVER_DISPATCHED)) return { variant: "never_dispatched", reason: detail.slice(NEVER_DISPATCHED.length) };
  if (detail === STOPPED_IDEMPOTENT) return { variant: "stopped_idempotent" };
  let core = detail;
  const notIdempotent = core.endsWith(NOT_IDEMPOTENT);
  if (notIdempotent) core = core.slice(0, -NOT_IDEMPOTENT.length);
  let attempts: number | null = null;
  const after = AFTER_ATTEMPTS.exec(core);
  if (after) {
    attempts = Number(after[1]);
    core = core.slice(0, after.index);
  }
  const typed = notIdempotent ? null : TYPED.exec(core);
  if (typed) return { variant: "typed", code: typed[1]!, message: typed[2] ?? null, attempts };
  return { variant: "text", text: core, attempts, notIdempotent };
}

export interface AttemptFailedDetail {
  attempt: number;
  /** The scheduled wait before the next attempt, in milliseconds. */
  backoffMs: number;
  /** Set when the failure printed as `<tool>: <code>[ — <message>]` (a typed ToolError). */
  code: string | null;
  /** The failure's text: the message of a typed error, or the whole text of an untyped one. */
  message: string | null;
}

/** Reads an `attempt_failed` detail of a tool retry; null when it does not fit the template. */
export function parseAttemptFailedDetail(detail: string | null, tool: string): AttemptFailedDetail | null {
  const m = detail === null ? null : ATTEMPT_FAILED.exec(detail);
  if (!m) return null;
  const attempt = Number(m[1]);
  const backoffMs = Math.round(Number(m[3]) * 1000);
  const failure = m[2]!;
  const prefix = `${tool}: `;
  if (failure.startsWith(prefix)) {
    const rest = failure.slice(prefix.length);
    const dash = rest.indexOf(" \u2014 ");
    const code = dash === -1 ? rest : rest.slice(0, dash);
    if (new RegExp(`^${CODE}$`).test(code)) {
      return { attempt, backoffMs, code, message: dash === -1 ? null : rest.slice(dash + 3) };
    }
  }
  return { attempt, backoffMs, code: null, message: failure };
}

/** Reads a `tool_refused` detail: `<code>: <message>` is a refusal by the tool; anything else is not. */
export function parseRefusalDetail(detail: string | null): { code: string; message: string } | null {
  const m = detail === null ? null : REFUSAL.exec(detail);
  return m ? { code: m[1]!, message: m[2]! } : null;
}
