import type { Store } from "@/db/client";
import { storedToldCalls } from "@/db/told/stored-told-calls";
import type { StoredAttemptVerdict } from "@/lib/classify/classify-errors";
import { toldErrorsFromStored } from "@/lib/ingest/otlp/told-errors";
import type { RowBatch } from "@/lib/ingest/rows";

/**
 * Adds to the batch the told errors of calls stored by earlier requests whose results to the model
 * this batch carries (docs/otlp.md, "What the model was told"). They answer to no record of the
 * request (index -1); their own fields are the emitter's, and classification makes them follow the
 * stored attempt (the verdicts returned, by span id: `classifyErrorRows`). Read before the write transaction:
 * the calls they answer were stored by an earlier request; the same told error derived twice (a
 * retried request) is one row, its event id being the failed attempt's span id.
 */
export async function addStoredToldErrors(store: Store, projectId: string, rows: RowBatch): Promise<ReadonlyMap<string, StoredAttemptVerdict>> {
  const pending = rows.toldResults ?? [];
  const stored = await storedToldCalls(store, projectId, pending.map((r) => r.callId!));
  for (const row of toldErrorsFromStored(pending, stored)) rows.toolErrors.push({ index: -1, row: { ...row, source: "otlp" } });
  return stored.verdicts;
}
