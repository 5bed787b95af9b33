import type { RowBatch } from "@/lib/ingest/rows";
import type { Store } from "../store/types";
import { mergeBatches, recordsOf, splitResult } from "./coalesce-merge";
import type { WriteResult } from "./tally";
import { writeRows } from "./write-rows";

/** How a node groups the batches of one project that wait for the write path. */
export interface CoalesceOptions {
  /**
   * Transactions of one project written at once. A batch that finds them all in flight waits and
   * goes into the next one with every batch that arrived meanwhile.
   */
  inFlight: number;
  /** Most records in one coalesced transaction; a batch that would pass it starts the next group. */
  maxRecords: number;
  /** The time a group is stored at (`received_at`, issue times): when its write starts. */
  now?: () => number;
  /** The writer of one transaction (tests count transactions through it). */
  write?: (store: Store, projectId: string, batch: RowBatch, now: number) => Promise<WriteResult>;
}

/** Defaults per engine, from bench:ingest --cpu with 8 writers (docs/ingest-performance.md, "Coalescing"). */
export const COALESCE_DEFAULTS: Record<Store["dialect"], Pick<CoalesceOptions, "inFlight" | "maxRecords">> = {
  postgres: { inFlight: 2, maxRecords: 2000 },
  sqlite: { inFlight: 1, maxRecords: 2000 },
};

/** What the coalescer did so far (transactions begun, failed groups included): batches per transaction. */
export interface CoalesceStats {
  batches: number;
  transactions: number;
  /** Groups whose shared transaction failed, each batch of which was then written alone. */
  fallbacks: number;
}

interface Waiting {
  batch: RowBatch;
  records: number;
  resolve: (result: WriteResult) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  running: number;
  /** Groups in arrival order, each under the record cap (or one batch alone that passes it). */
  queue: { members: Waiting[]; records: number }[];
}

/**
 * Group commit for ingest on one node: the batches of a project that arrive while its transactions
 * are in flight are written together in the next one, so the rows every batch of a project updates
 * (conformance, emitters, the current hour's rollups) are updated once per group instead of once per
 * batch, and no two of those batches wait on each other's row locks. Each caller is answered only
 * after its rows are committed, with its own result, the one writing its batch alone would give.
 * When the shared transaction fails, every batch of the group is written alone, so the error reaches
 * only the batch it belongs to (whose caller can then isolate the record at fault).
 */
export class BatchCoalescer {
  private readonly lanes = new Map<string, Lane>();
  private readonly counts: CoalesceStats = { batches: 0, transactions: 0, fallbacks: 0 };
  private readonly options: Required<CoalesceOptions>;

  constructor(
    private readonly store: Store,
    options: Partial<CoalesceOptions> = {},
  ) {
    this.options = { ...COALESCE_DEFAULTS[store.dialect], now: Date.now, write: writeRows, ...options };
  }

  /** Writes the batch, alone or with the others waiting; resolves once it is committed. */
  write(projectId: string, batch: RowBatch): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      let lane = this.lanes.get(projectId);
      if (lane === undefined) this.lanes.set(projectId, (lane = { running: 0, queue: [] }));
      const member: Waiting = { batch, records: recordsOf(batch), resolve, reject };
      this.counts.batches++;
      if (lane.running < this.options.inFlight) {
        this.start(projectId, lane, [member]);
        return;
      }
      const last = lane.queue.at(-1);
      if (last !== undefined && last.records + member.records <= this.options.maxRecords) {
        last.members.push(member);
        last.records += member.records;
      } else lane.queue.push({ members: [member], records: member.records });
    });
  }

  /** Counts so far. */
  stats(): CoalesceStats {
    return { ...this.counts };
  }

  private start(projectId: string, lane: Lane, members: Waiting[]): void {
    lane.running++;
    // A fault outside the writes (none is known) must still answer every caller: settling a promise
    // already settled does nothing.
    void this.writeGroup(projectId, members)
      .catch((error: unknown) => members.forEach((m) => m.reject(error)))
      .finally(() => {
        lane.running--;
        const next = lane.queue.shift();
        if (next !== undefined) this.start(projectId, lane, next.members);
        else if (lane.running === 0) this.lanes.delete(projectId);
      });
  }

  private async writeGroup(projectId: string, members: Waiting[]): Promise<void> {
    const { write, now } = this.options;
    // A writer that throws before its promise is made fails its own batch only.
    const alone = (m: Waiting) => Promise.resolve().then(() => write(this.store, projectId, m.batch, now())).then(m.resolve, m.reject);
    this.counts.transactions++;
    if (members.length === 1) return alone(members[0]!);
    const merged = mergeBatches(members.map((m) => m.batch));
    let results: WriteResult[];
    try {
      results = splitResult(merged, await write(this.store, projectId, merged.batch, now()));
    } catch {
      // Nothing of the group was committed: each batch alone, each answered with its own outcome. One
      // after the other, in the order they came, so a record two of them hold goes to the same one as
      // in the shared transaction.
      this.counts.fallbacks++;
      for (const m of members) {
        this.counts.transactions++;
        await alone(m);
      }
      return;
    }
    members.forEach((m, k) => m.resolve(results[k]!));
  }
}
