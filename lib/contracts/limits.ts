/** Size and count limits of the wire contract, shared by the exporter and the ingestion API. */
export const LIMITS = {
  /** Request body after decompression. */
  maxBodyBytes: 5 * 1024 * 1024,
  /** Records in one batch. */
  maxRecords: 1000,
  /** One record, serialised as JSON. */
  maxRecordBytes: 64 * 1024,
  /** Ids, names, codes. */
  maxIdLength: 128,
  maxNameLength: 200,
  maxCodeLength: 128,
  maxVersionLength: 64,
  /** Free text such as the told text or a message. */
  maxTextLength: 16 * 1024,
  maxAttempt: 1000,
  /** retry_after / backoff never exceed one day on the wire. */
  maxDelayMs: 86_400_000,
  maxDurationMs: 7 * 86_400_000,
  /** Unanswered tool uses one run record may report. */
  maxUnansweredToolUses: 100_000,
} as const;

/** Earliest accepted time: 2000-01-01T00:00:00Z. */
export const MIN_TIME_MS = Date.UTC(2000, 0, 1);
/** Latest accepted time is now plus this skew. */
export const MAX_FUTURE_SKEW_MS = 86_400_000;
