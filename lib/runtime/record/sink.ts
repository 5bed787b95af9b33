import type { IngestRecord } from "../../contracts";

/** Receives the records the run loop produces (the exporter is one). Must not block. */
export interface RecordSink {
  /** Accepts one record in the native wire format. */
  record(record: IngestRecord): void;
}

/** A sink that keeps records in memory: for tests and local inspection. */
export class MemorySink implements RecordSink {
  /** Everything recorded, in order. */
  readonly records: IngestRecord[] = [];

  record(record: IngestRecord): void {
    this.records.push(record);
  }

  /** Records of one type. */
  ofType<T extends IngestRecord["type"]>(type: T): Extract<IngestRecord, { type: T }>[] {
    return this.records.filter((r): r is Extract<IngestRecord, { type: T }> => r.type === type);
  }
}

/** Sends every record to several sinks. */
export function fanOut(...sinks: RecordSink[]): RecordSink {
  return { record: (r) => sinks.forEach((s) => safeRecord(s, r)) };
}

/** Calls `sink.record`, swallowing its failures: telemetry never breaks the agent. */
export function safeRecord(sink: RecordSink | undefined, record: IngestRecord): void {
  if (!sink) return;
  try {
    sink.record(record);
  } catch {
    // Intentionally ignored; see above.
  }
}
