import { countStaleFailures, reclassifyChunk, recordReclassifyProgress } from "@/db/classify/reclassify";
import { countStaleErrors, reclassifyErrorChunk } from "@/db/classify/reclassify-errors";
import { getClassificationRevision, getClassificationState, listClassificationRules } from "@/db/classify/rules";
import type { Store } from "@/db/client";
import { markFindingsStale } from "@/db/drift/refresh-drift";
import { compileRuleset } from "@/lib/classify/classify";
import type { JobLease } from "@/db/store/job-lock";
import type { JobOutcome } from "./job-messages";

// Failures per transaction: each moves its rollup counters in the same transaction as its rows.
const CHUNK = 500;

/**
 * Brings a project's stored failures and then their final errors (within raw retention: older ones are gone with their runs) up
 * to its current rules revision, chunk by chunk. Resumable: each chunk commits its rows together with
 * their revision, so a job stopped anywhere (lost lock, crash, a newer edit) resumes from what is left.
 * A newer rules revision ends this pass; the next run works towards that one.
 */
export async function reclassifyProject(store: Store, projectId: string, lease: JobLease, options: { chunk?: number; now?: () => number } = {}): Promise<JobOutcome> {
  const now = options.now ?? Date.now;
  const state = await getClassificationState(store, projectId);
  const ruleset = compileRuleset(await listClassificationRules(store, projectId), state.builtinEnabled, state.revision);
  const total = state.examined + (await countStaleFailures(store, projectId, state.revision)) + (await countStaleErrors(store, projectId, state.revision));
  let examined = state.examined;
  let changed = state.changed;
  for (;;) {
    if (!(await lease.held())) return { rows: examined - state.examined, skipped: "lost the job lock mid-way; the next run resumes" };
    if ((await getClassificationRevision(store, projectId)) !== state.revision) return { rows: examined - state.examined, skipped: "the rules changed mid-way; a new pass follows" };
    // Spans first: a final error follows its call's last failed attempt as re-classified.
    let chunk = await reclassifyChunk(store, projectId, ruleset, options.chunk ?? CHUNK);
    if (chunk.examined === 0) chunk = await reclassifyErrorChunk(store, projectId, ruleset, { limit: options.chunk ?? CHUNK, now: now() });
    examined += chunk.examined;
    changed += chunk.changed;
    const done = chunk.examined === 0;
    await recordReclassifyProgress(store, projectId, state.revision, { examined, changed, total: Math.max(total, examined), done }, now());
    if (!done) continue;
    // Drift's findings read the rule history, which now knows what this revision's reorder or switch moved.
    if (state.appliedRevision < state.revision) await markFindingsStale(store, projectId);
    return { rows: examined - state.examined, detail: `${changed} of ${examined} stored failures changed` };
  }
}
