/**
 * Defaults of the runtime that the dashboard also relies on, declared once: the runtime applies them
 * and the dashboard assumes them when a record leaves them out (a run record written before
 * `max_tool_attempts` existed, or by another emitter). lib/contracts is the one module both import.
 */

/** Retries one tool may consume across a whole run, all its calls together (`maxToolAttempts`). */
export const DEFAULT_MAX_TOOL_ATTEMPTS = 12;
