/**
 * Secret and personal-data scrubbing for free text (error messages, told texts).
 *
 * Shared by the runtime (before anything leaves the process) and the server (again at ingest), and
 * published with the runtime, so it has no dependencies. Pure and linear-time: every pattern uses
 * bounded quantifiers, and input beyond {@link SCRUB_MAX_INPUT} is cut off instead of scanned, so a
 * hostile message cannot stall a request. The rules live in `./scrub/rules.ts`, one per secret shape.
 * Never apply it to id fields: a 32-hex trace id is an identifier there, not a secret.
 */
import { SCRUB_RULES } from "./scrub/rules";

export { cardPrefixValid, ibanValid, luhnValid } from "./scrub/checks";
export { redactionToken, SCRUB_RULES, type ScrubKind, type ScrubRule } from "./scrub/rules";

/** Longest input scanned; the remainder is replaced by {@link TRUNCATED_MARK} rather than passed on unscanned. */
export const SCRUB_MAX_INPUT = 64 * 1024;

/** Appended when the input was longer than {@link SCRUB_MAX_INPUT}. */
export const TRUNCATED_MARK = "[truncated]";

/**
 * Replaces every recognised secret in `text` with a `[redacted:<kind>]` token (IBANs keep a short
 * `[redacted:iban DE89…00]` hint) and keeps the rest. Text beyond {@link SCRUB_MAX_INPUT} characters
 * is dropped and marked with {@link TRUNCATED_MARK}. Idempotent: scrubbing scrubbed text changes nothing.
 */
export function scrubText(text: string): string {
  let out = text.length > SCRUB_MAX_INPUT ? text.slice(0, SCRUB_MAX_INPUT) : text;
  for (const rule of SCRUB_RULES) out = rule.apply(out);
  return text.length > SCRUB_MAX_INPUT ? out + TRUNCATED_MARK : out;
}

/** True when {@link scrubText} would change `text` (a secret-shaped substring is present). */
export function looksSensitive(text: string): boolean {
  return scrubText(text) !== text;
}
