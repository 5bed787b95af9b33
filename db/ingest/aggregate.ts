import { DELAY_BUCKETS_MS } from "../schema/delay-histograms";
import type { RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";

const HOUR_MS = 3_600_000;
const SIX_HOURS_MS = 6 * HOUR_MS;

/** Start of the UTC period of length `periodMs` containing `ms`. */
export const periodOf = (ms: number, periodMs: number = HOUR_MS) => Math.floor(ms / periodMs) * periodMs;

/** The histogram bucket (upper bound) a delay falls in. */
export function delayBucket(ms: number): number {
  for (const bound of DELAY_BUCKETS_MS) if (ms <= bound) return bound;
  return DELAY_BUCKETS_MS[DELAY_BUCKETS_MS.length - 1]!;
}

/**
 * Sums a batch's rows per rollup key before touching SQLite, so a 500-span batch costs a handful of
 * upserts rather than 500 of each kind.
 */
export class BatchAggregates {
  readonly spanRollups = new Map<string, (string | number)[]>();
  readonly delayBuckets = new Map<string, (string | number)[]>();
  readonly attemptCounts = new Map<string, (string | number)[]>();
  readonly errorRollups = new Map<string, (string | number)[]>();
  readonly codes = new Map<string, (string | number)[]>();
  readonly runStats = new Map<string, (string | number)[]>();
  readonly conformance = new Map<string, (string | number)[]>();
  readonly runTools = new Map<string, (string | number)[]>();

  constructor(private readonly projectId: string) {}

  addSpan(s: SpanRow): void {
    const attempt = s.attempt ?? 0;
    const values = [
      1,
      attempt === 1 ? 1 : 0,
      attempt === 2 ? 1 : 0,
      attempt > 1 ? 1 : 0,
      attempt,
      s.retryAfterMs !== null ? 1 : 0,
      s.retryAfterMs ?? 0,
      s.backoffMs !== null ? 1 : 0,
      s.backoffMs ?? 0,
      s.decision === "failed_closed" ? 1 : 0,
      Math.max(0, s.endedAt - s.startedAt),
      s.attempt === null ? 1 : 0,
    ];
    const hour = periodOf(s.startedAt);
    bump(this.spanRollups, [this.projectId, hour, s.tool, s.code ?? "", s.outcome ?? "", s.errorClass ?? "", s.release ?? "", s.service ?? ""], values, SPAN_ROLLUP_COMBINE);
    const delayDims = [this.projectId, hour, s.tool, s.code ?? "", s.release ?? "", s.service ?? ""];
    if (s.retryAfterMs !== null) bump(this.delayBuckets, [...delayDims, "retry_after", delayBucket(s.retryAfterMs)], [1]);
    if (s.backoffMs !== null) bump(this.delayBuckets, [...delayDims, "backoff", delayBucket(s.backoffMs)], [1]);
    if (s.attempt !== null) bump(this.attemptCounts, [this.projectId, hour, s.tool, s.release ?? "", s.service ?? "", s.attempt], [1]);
    if (s.code !== null) {
      bump(this.codes, this.codeDims(s.code, s.tool, s.release, s.toolVersion, s.errorClass, s.retryable), [s.startedAt, s.startedAt, 1, 0], CODE_COMBINE);
    }
    const failed = s.outcome !== null && s.outcome !== "ok" ? 1 : 0;
    bump(this.runTools, [this.projectId, s.tool, s.runId], []);
    bump(this.conformance, [this.projectId, s.source], [1, s.outcome === null ? 1 : 0, failed, failed && s.code === null ? 1 : 0, s.attempt === null ? 1 : 0, s.release === null ? 1 : 0]);
    bump(
      this.runStats,
      [this.projectId, s.runId],
      [1, attempt === 1 ? 1 : 0, attempt > 1 ? 1 : 0, failed, s.outcome === "declined" ? 1 : 0, s.outcome === "refused" ? 1 : 0, 0, s.startedAt, s.endedAt],
      RUN_STATS_COMBINE,
    );
  }

  /**
   * A run with no spans yet still gets its counters row, so the runs list shows it. `first_started_at`
   * orders and windows the list and must be a time; for a run known only from its end it is the end,
   * the latest moment the run can have started, and the min-merge lowers it when the start or a span
   * arrives. The run's own start stays unknown in `runs.started_at`, which is what the list shows.
   */
  addRun(r: RunRow): void {
    const first = r.startedAt ?? r.endedAt;
    const last = r.endedAt ?? r.startedAt;
    if (first === null || last === null) return;
    bump(this.runStats, [this.projectId, r.runId], [0, 0, 0, 0, 0, 0, 0, first, last], RUN_STATS_COMBINE);
  }

  addToolError(e: ToolErrorRow): void {
    const hour = periodOf(e.occurredAt);
    const dims = [this.projectId, hour, e.tool, e.code ?? "", e.errorClass ?? "", e.decision ?? "", e.release ?? "", e.service ?? ""];
    bump(this.errorRollups, dims, [1, e.attempts ?? 0, e.retryable ? 1 : 0]);
    if (e.code !== null) {
      bump(this.codes, this.codeDims(e.code, e.tool, e.release, e.toolVersion, e.errorClass, e.retryable), [e.occurredAt, e.occurredAt, 0, 1], CODE_COMBINE);
    }
    bump(this.runStats, [this.projectId, e.runId], [0, 0, 0, 0, 0, 0, 1, e.occurredAt, e.occurredAt], RUN_STATS_COMBINE);
  }

  /** The six-hourly rows, summed from the batch's hourly rows (far fewer than its spans). */
  sixHourly(): { spanRollups: RowMap; delayBuckets: RowMap; attemptCounts: RowMap } {
    return {
      spanRollups: coarsen(this.spanRollups, 8, SPAN_ROLLUP_COMBINE),
      delayBuckets: coarsen(this.delayBuckets, 8, []),
      attemptCounts: coarsen(this.attemptCounts, 6, []),
    };
  }

  private codeDims(code: string, tool: string, release: string | null, toolVersion: string | null, errorClass: string | null, retryable: boolean | null) {
    return [this.projectId, code, tool, release ?? "", toolVersion ?? "", errorClass ?? "", retryable === null ? -1 : retryable ? 1 : 0];
  }
}

type RowMap = Map<string, (string | number)[]>;
type Combine = "sum" | "min" | "max";
// How each value column merges when two rows of a batch share a key (default: sum).
const SPAN_ROLLUP_COMBINE: Combine[] = ["sum", "sum", "sum", "sum", "max"];
const CODE_COMBINE: Combine[] = ["min", "max"];
const RUN_STATS_COMBINE: Combine[] = ["sum", "sum", "sum", "sum", "sum", "sum", "sum", "min", "max"];

/** Re-keys hourly rows (period at column 1) to six-hour periods, merging rows that meet. */
function coarsen(hourly: RowMap, dimsCount: number, combine: Combine[]): RowMap {
  const out: RowMap = new Map();
  for (const row of hourly.values()) {
    const dims = row.slice(0, dimsCount);
    dims[1] = periodOf(dims[1] as number, SIX_HOURS_MS);
    bump(out, dims, row.slice(dimsCount) as number[], combine);
  }
  return out;
}

/** Merges `values` into the row stored under `dims`. */
function bump(into: Map<string, (string | number)[]>, dims: (string | number)[], values: number[], combine: Combine[] = []): void {
  const key = dims.join("\u0000");
  const row = into.get(key);
  if (!row) {
    into.set(key, [...dims, ...values]);
    return;
  }
  const offset = dims.length;
  values.forEach((v, i) => {
    const current = row[offset + i] as number;
    const how = combine[i] ?? "sum";
    row[offset + i] = how === "max" ? Math.max(current, v) : how === "min" ? Math.min(current, v) : current + v;
  });
}
