import { INGEST_BARRIER_LOCK } from "../store/locks";
import type { Store } from "../store/types";

/** The highest `pk` of each raw table a fold may read: every row at or below it is committed (or never will be). */
export interface FoldHorizon {
  spans: number;
  errors: number;
}

/** SQLite needs no bound: see readFoldHorizon. */
const UNBOUNDED: FoldHorizon = { spans: Number.MAX_SAFE_INTEGER, errors: Number.MAX_SAFE_INTEGER };

/**
 * How far a drift fold may read the raw tables without passing a row that commits later.
 *
 * A fold remembers the last `pk` it folded and next reads only rows above it, so it must never
 * read past a row that is not visible yet. On SQLite a `pk` is handed out inside the one write
 * transaction at a time, so whatever a fold's own transaction sees is complete: no bound.
 *
 * On PostgreSQL `pk`s come from a sequence when a row is inserted, not when its transaction
 * commits: ingest A takes pk 10, ingest B takes pk 11 and commits first, and a fold reading then
 * sees 11 but not 10, moves its watermark to 11 and never comes back for 10. So every ingest
 * transaction holds `INGEST_BARRIER_LOCK` shared from its start, and here the fold takes it
 * exclusively in a short transaction of its own: granted only once every ingest transaction that
 * was open has committed or rolled back (and new ones queue behind it for that instant). While it
 * is held no `pk` is in flight, so max(pk) of each table is a horizon every row at or below which
 * is committed, and any later ingest gets a larger `pk` (the sequences must not cache values per
 * session, or that order breaks). The fold then reads only up to the horizon; rows above it wait
 * for the next horizon. The lock is released at COMMIT, a few milliseconds later.
 */
export async function readFoldHorizon(store: Store): Promise<FoldHorizon> {
  if (store.dialect === "sqlite") return UNBOUNDED;
  return store.transaction(async (tx) => {
    await tx.get("SELECT pg_advisory_xact_lock(@key)", { key: INGEST_BARRIER_LOCK });
    const row = await tx.get<{ spans: number | null; errors: number | null }>(
      "SELECT (SELECT max(pk) FROM tool_call_spans) AS spans, (SELECT max(pk) FROM tool_errors) AS errors",
    );
    return { spans: row?.spans ?? 0, errors: row?.errors ?? 0 };
  });
}
