import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import type { IngestResult } from "@/lib/contracts";
import { countDuplicateRecords, type IngestFormat } from "@/lib/ingest/format";

/**
 * Normalises a parsed envelope with its format and stores the rows in one transaction (all or
 * nothing). `accepted` counts every valid record, of which `duplicates` were already stored.
 */
export async function ingestEnvelope<E>(store: Store, projectId: string, format: IngestFormat<E>, envelope: E, now?: number): Promise<IngestResult> {
  const { rows, rejections, accepted } = format.normalize(envelope, now);
  const rowCount = rows.spans.length + rows.toolErrors.length + rows.runs.length + (rows.drops?.length ?? 0);
  const duplicateIndexes = rowCount > 0 ? (await writeRows(store, projectId, rows)).duplicateIndexes : [];
  return { accepted, duplicates: countDuplicateRecords(rows, duplicateIndexes), rejected: rejections };
}
