import { z } from "zod";
import { driftFindingSchema, mixSchema } from "./drift";

const countSchema = z.number().int().nonnegative();
const projectParam = z.string().trim().min(1).max(200).default("default");
const releaseParam = z.string().trim().min(1).max(200);

/** The version of the code-contract document; a document of another version is refused, not guessed at. */
export const CODE_CONTRACT_VERSION = 1;

/** One code of one tool in a release's catalogue. Mixes list the dominant value first. */
export const contractCodeSchema = z.object({
  code: z.string().min(1),
  calls: countSchema,
  /** The dominant class, retryability and outcome (null when no record said). */
  class: z.string().nullable(),
  retryable: z.boolean().nullable(),
  outcome: z.string().nullable(),
  mixes: z.object({ errorClass: mixSchema, retryable: mixSchema, outcome: mixSchema, decision: mixSchema }),
  retryAfter: z.object({ samples: countSchema, medianMs: z.number().nullable() }),
  recovery: z.object({ calls: countSchema, recovered: countSchema }),
});
export type ContractCode = z.infer<typeof contractCodeSchema>;

export const contractToolSchema = z.object({
  tool: z.string().min(1),
  /** Every call of the tool in the release (the denominator for removed and added codes). */
  calls: countSchema,
  codes: z.array(contractCodeSchema),
});

/** `GET /api/v1/codes/contract`: a release's code catalogue, a document a team commits and gates against. */
export const codeContractSchema = z.object({
  version: z.literal(CODE_CONTRACT_VERSION),
  project: z.string(),
  release: z.string().min(1),
  exportedAt: z.number().int(),
  tools: z.array(contractToolSchema),
});
export type CodeContract = z.infer<typeof codeContractSchema>;

export const codeContractQuerySchema = z.object({ project: projectParam, release: releaseParam });
export type CodeContractQuery = z.infer<typeof codeContractQuerySchema>;

/** `GET /api/v1/gate`: `against` names a release; without it each tool's predecessor is used. */
export const gateQuerySchema = z.object({
  project: projectParam,
  release: releaseParam,
  against: releaseParam.optional(),
});
export type GateQuery = z.infer<typeof gateQuerySchema>;

/** `POST /api/v1/gate`: the same, where `against` may also be a code-contract document. */
export const gateBodySchema = z.object({
  project: projectParam,
  release: releaseParam,
  against: z.union([releaseParam, codeContractSchema]).optional(),
});
export type GateBody = z.infer<typeof gateBodySchema>;

export const GATE_VERDICTS = ["pass", "fail", "undecided"] as const;
export type GateVerdict = (typeof GATE_VERDICTS)[number];

/**
 * Why the gate could not decide. `not_semver`: no violation, but findings for the worse between
 * releases that are not semantic versions (CalVer, build numbers), which SemVer cannot judge: a
 * person must look before the release ships.
 */
export const GATE_UNDECIDED_REASONS = ["unknown_release", "no_predecessor", "too_few_calls", "not_semver"] as const;
export type GateUndecidedReason = (typeof GATE_UNDECIDED_REASONS)[number];

/** Why one tool of the release was not compared: first release of the tool, too few calls on a side, absent from the base. */
export const GATE_UNJUDGED_REASONS = ["no_predecessor", "too_few_calls", "not_in_base"] as const;

/** The drift checks a code-contract document cannot feed, named with why in a gate answer against one. */
export const UNCHECKED_FROM_CONTRACT = [
  {
    check: "retry_after_p90",
    why: "the document keeps only the median retry_after, so waits are compared by their medians: a change in the slowest 10 % alone is not seen",
  },
  {
    check: "rename_told_wording",
    why: "the document keeps no told texts, so when several new codes could be the rename of a removed one the tie is broken by call volume alone",
  },
  {
    check: "self_correction",
    why: "the document keeps no next steps after surfaced errors, so a change in how often the model recovers after a code (model behaviour) is not seen: gate against the release itself for it",
  },
] as const;

const codeSeenSchema = z.object({ tool: z.string(), code: z.string(), calls: countSchema });

export const gateResponseSchema = z.object({
  verdict: z.enum(GATE_VERDICTS),
  /** Why the gate could not decide (null unless `undecided`), in a word and in a sentence. */
  reason: z.enum(GATE_UNDECIDED_REASONS).nullable(),
  message: z.string(),
  project: z.string(),
  release: z.string(),
  against: z.object({ kind: z.enum(["predecessor", "release", "contract"]), release: z.string().nullable() }),
  /** The tool releases compared: each tool of `release` with the release it was compared against. */
  comparisons: z.array(z.object({ tool: z.string(), from: z.string(), to: z.string(), fromCalls: countSchema, toCalls: countSchema })),
  /** The other tools of `release`, not compared, each with why. `comparisons` and `unjudged` together list every tool of the release. */
  unjudged: z.array(
    z.object({
      tool: z.string(),
      calls: countSchema,
      reason: z.enum(GATE_UNJUDGED_REASONS),
      base: z.string().nullable(),
      baseCalls: countSchema.nullable(),
      why: z.string(),
    }),
  ),
  /** SemVer-violating findings: any one fails the gate. */
  violations: z.array(driftFindingSchema),
  /** Findings SemVer allows (a major, a 0.x minor) or cannot judge (releases not semantic versions). */
  otherFindings: z.array(driftFindingSchema),
  /** Behaviour that changed for the better (calls recover more often, shorter waits, the model corrects itself more often): information, never a failure. */
  improvements: z.array(driftFindingSchema),
  newCodes: z.array(codeSeenSchema),
  removedCodes: z.array(codeSeenSchema),
  /** Checks that could not be made (against a contract document, which lacks their data), each with why. */
  unchecked: z.array(z.object({ check: z.string(), why: z.string() })),
  /** False while ingested rows still wait to be folded into drift: a later answer may differ. */
  upToDate: z.boolean(),
});
export type GateResponse = z.infer<typeof gateResponseSchema>;
