import type { IngestRecord } from "@/lib/contracts";
import { clampRecord } from "@/lib/runtime";
import { assignmentVector } from "./assignment-cases";
import { wordingSetVector } from "./wording-set-cases";
import { CLAMP_INPUTS, ARGS_INPUTS, SCRUB_INPUTS, argsHash, canonicalArgs, decisionResults, errorMapResults, scrubText, scriptedRunRecords, SCRIPTED_RUN, ERROR_MAP } from "./cases";

/** Every vector file's content, as the TypeScript runtime computes it today. */
export async function vectorFiles(): Promise<Record<string, unknown>> {
  return {
    "args-hash.json": ARGS_INPUTS.map((c) => ({ ...c, canonical: canonicalArgs(c.args), hash: argsHash(c.args) })),
    "scrub.json": SCRUB_INPUTS.map((input) => ({ input, output: scrubText(input) })),
    "error-map.json": { ...ERROR_MAP, cases: errorMapResults() },
    "decisions.json": decisionResults(),
    "scripted-run.json": { ...SCRIPTED_RUN, expected: await scriptedRunRecords() },
    "assignment.json": assignmentVector(),
    "clamp.json": CLAMP_INPUTS.map((c) => ({ name: c.name, input: c.record, ...clampRecord(c.record as IngestRecord) })),
    "wording-set.json": wordingSetVector(),
  };
}
