// What makes a final tool error one "the model was told", and which release its counts go under.

/** Decisions after which the model never read the told text (or the call was not over). */
const NOT_TOLD = new Set(["failed_run", "cancelled", "retried"]);

/**
 * True when a final tool error reached the model: it carries the told text, and its decision is not
 * one after which the model reads nothing (`failed_run`, `cancelled`). Sources that record no
 * decision count when they recorded a told text.
 */
export function isSurfaced(decision: string | null, told: string | null): boolean {
  return told !== null && (decision === null || !NOT_TOLD.has(decision));
}

const present = (v: string | null): v is string => v !== null && v.trim() !== "";

/**
 * The release a surfaced error counts under: the agent's release it was recorded in (what the model
 * and its prompt ship with), else the tool's version; '' when neither is known.
 */
export function toldRelease(release: string | null, toolVersion: string | null): string {
  if (present(release)) return release;
  if (present(toolVersion)) return toolVersion;
  return "";
}
