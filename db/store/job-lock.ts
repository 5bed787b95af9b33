import type { PoolClient, QueryResultRow } from "pg";
import { JOB_LOCKS } from "./locks";
import type { Store } from "./types";

/** What a job holding its lock can ask while it works. */
export interface JobLease {
  /** False once the lock's connection is gone: another node may run the job now, so stop. */
  held(): Promise<boolean>;
}

export type LockedResult<T> = { ran: true; value: T } | { ran: false };

const ALWAYS: JobLease = { held: async () => true };

/**
 * Runs `fn` only if no other node runs the same job on the same scope (a project, or "all").
 *
 * On PostgreSQL the lock is a session advisory lock taken with pg_try_advisory_lock on a pooled
 * connection set aside for the job's whole run: the job's own statements use other connections.
 * Another node's attempt fails at once and is reported as not run (it never queues behind a long
 * fold). A session lock lives exactly as long as its connection, so a node that dies mid-job (or
 * whose connection is cut) releases it, and the next node to try takes over from whatever the job
 * last committed (a drift watermark, the runs not yet pruned). `lease.held()` notices a cut
 * connection so the job stops instead of running on beside its successor.
 *
 * SQLite has one server process per file: the lock is not needed and `fn` always runs.
 */
export async function withJobLock<T>(store: Store, kind: keyof typeof JOB_LOCKS, scope: string, fn: (lease: JobLease) => Promise<T>): Promise<LockedResult<T>> {
  if (store.dialect === "sqlite") return { ran: true, value: await fn(ALWAYS) };
  const client: PoolClient = await store.pool.connect();
  let broken: Error | undefined;
  // A checked-out client has no error listener of the pool's: without this one, a connection cut
  // while the job works would be an unhandled 'error' event.
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onError);
  const key = [JOB_LOCKS[kind], scope];
  const query = async <R extends QueryResultRow>(sql: string, params: unknown[] = []) => {
    try {
      return await client.query<R>(sql, params);
    } catch (error) {
      broken ??= error as Error;
      throw error;
    }
  };
  const lease: JobLease = {
    async held() {
      if (broken) return false;
      return query("SELECT 1").then(
        () => true,
        () => false,
      );
    },
  };
  try {
    const got = await query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", key);
    if (got.rows[0]?.ok !== true) return { ran: false };
    try {
      return { ran: true, value: await fn(lease) };
    } finally {
      if (!broken) await query("SELECT pg_advisory_unlock($1, hashtext($2))", key).catch(() => undefined);
    }
  } finally {
    client.off("error", onError);
    // A connection that failed is closed rather than returned (closing it also ends any lock it held).
    client.release(broken);
  }
}
