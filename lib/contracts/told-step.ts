import { z } from "zod";

// Apart from ./told.ts: the run page and the Codes table read these alone, without the told views'
// contracts.

/**
 * What happened after an error was surfaced to the model (docs/after-told.md):
 * - `recovered`: a later call of the same tool ended ok;
 * - `replaced`: a call of another tool that replaced it ended ok (linked by the runtime, or the very
 *   next call of the run);
 * - `repeated`: the model called the tool again with the same arguments and got the same code;
 * - `changed_failed`: it called the tool again, not as a repeat, and failed again;
 * - `unknown`: it called the tool again and failed, but no arguments hash says whether it repeated;
 * - `gave_up`: no later call of the tool, and the run completed;
 * - `run_failed`: no later call of the tool, and the run failed or was cancelled;
 * - `pending`: nothing decided yet: the run has not ended (or its end has not arrived).
 */
export const TOLD_STEPS = ["recovered", "replaced", "repeated", "changed_failed", "unknown", "gave_up", "run_failed", "pending"] as const;
export type ToldStep = (typeof TOLD_STEPS)[number];

/** Steps in which the model corrected itself. */
export const RECOVERY_STEPS: readonly ToldStep[] = ["recovered", "replaced"];

/** One arrow of the run timeline: a surfaced error and the call that decided what came of it. */
export const timelineToldStepSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  code: z.string(),
  step: z.enum(TOLD_STEPS),
  nextCallId: z.string().nullable(),
  nextTool: z.string().nullable(),
  /** The model's calls until the recovering one (recovered and replaced only). */
  callsUntilRecovery: z.number().int().nullable(),
});
export type TimelineToldStep = z.infer<typeof timelineToldStepSchema>;

/**
 * Decided errors a rate needs before it is shown as a rate (and the drift rule compares it): below
 * this one error swings it by 10 % or more. The same minimum as drift's per-release sample.
 */
export const MIN_TOLD_SAMPLE = 10;

const countSchema = z.number().int().nonnegative();
const rateSchema = z.number().min(0).max(1).nullable();

/** The recovery summary the Codes table shows per code. */
export const codeToldSchema = z.object({ surfaced: countSchema, decided: countSchema, recovered: countSchema, selfCorrection: rateSchema });
export type CodeTold = z.infer<typeof codeToldSchema>;
