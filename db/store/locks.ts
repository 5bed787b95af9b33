// PostgreSQL advisory lock keys, one place so no two uses collide. (Key 7210001 is the migration
// lock in pg-store.ts.)

/**
 * Every ingest transaction holds this lock shared; a drift fold takes it exclusively for an instant
 * to learn a `pk` horizon below which every row is committed. Sequences hand out `pk`s at insert
 * time, not commit time, so without the barrier a fold could pass a row still being committed.
 */
export const INGEST_BARRIER_LOCK = 7_210_002;

/** Background jobs: each kind runs on one node at a time (session locks, released if the node dies). */
export const JOB_LOCKS = {
  "drift-fold": 7_210_010,
  retention: 7_210_011,
  partitions: 7_210_012,
  alerts: 7_210_013,
  reclassify: 7_210_014,
} as const;

/**
 * Advisory lock (transaction scope) held while one node creates, fills or drops a partition. It is
 * not the `partitions` job lock: a job holding that one as a session lock on another connection of
 * the same process would wait on itself.
 */
export const PARTITION_DDL_LOCK = 7_210_020;

/**
 * The class of the per-run advisory locks (two-key form: this class, a hash of project and run) an
 * ingest transaction holds while it reclassifies the told steps of a run (db/ingest/told-steps.ts).
 * Two-key locks never collide with the one-key locks above.
 */
export const TOLD_RUN_LOCK = 7_210_030;
