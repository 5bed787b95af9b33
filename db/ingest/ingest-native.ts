import { checkRecord, type IngestRecord, type IngestResult, type Rejection, type Resource } from "@/lib/contracts";
import type { Store } from "../client";
import { normalizeNative } from "./normalize-native";
import { emptyRowBatch } from "./rows";
import { writeRows } from "./write-rows";

/**
 * Validates each record of a native batch on its own, stores the valid ones in one transaction and
 * answers per record. `accepted` counts every valid record, of which `duplicates` were already stored.
 */
export function ingestNativeBatch(
  store: Store,
  projectId: string,
  resource: Resource | undefined,
  records: readonly unknown[],
): IngestResult {
  const valid: { index: number; record: IngestRecord }[] = [];
  const rejected: Rejection[] = [];
  records.forEach((raw, index) => {
    const check = checkRecord(raw, index);
    if (check.ok) valid.push({ index, record: check.record });
    else rejected.push(check.rejection);
  });
  if (valid.length === 0) return { accepted: 0, duplicates: 0, rejected };
  const rows = normalizeNative(resource, valid, emptyRowBatch());
  const { duplicateIndexes } = writeRows(store, projectId, rows);
  return { accepted: valid.length, duplicates: duplicateIndexes.length, rejected };
}
