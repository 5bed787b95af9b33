import type { Dialect, Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { writeRows } from "@/db/ingest/write-rows";
import { emptyRowBatch, type RowBatch, type SpanRow, type ToolErrorRow } from "@/lib/ingest/rows";
import type { DriftFinding } from "@/lib/contracts/drift";
import { openTestStore } from "../../helpers/stores";

export const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const DAY = 86_400_000;

export interface CallSpec {
  tool: string;
  toolVersion?: string | null;
  release?: string | null;
  sdkVersion?: string | null;
  code: string;
  errorClass?: string | null;
  retryable?: boolean | null;
  outcome?: string;
  decision?: string;
  retryAfterMs?: number | null;
  /** A second attempt of the call succeeds. */
  recovers?: boolean;
  told?: string;
  /** Day offset from T0 (orders releases seen first). */
  day?: number;
  /** The final error's own tool version when it differs from its spans' (`null`: it names none). */
  errorToolVersion?: string | null;
}

/**
 * Builds rows for generated calls and writes them; every call gets its own run. `failing` and `ok`
 * queue their writes in order and return at once, so calls chain; `settled()` (and `findings()`)
 * wait for every queued write.
 */
export class Scenario {
  private seq = 0;
  private pending: Promise<unknown> = Promise.resolve();

  /** On an existing store (e2e seeding) that already has the project. */
  constructor(
    readonly projectId: string,
    readonly store: Store,
  ) {}

  /** A fresh store of the dialect (SQLite in memory, or a new PostgreSQL database) with the default project. Close it with `store.close()`. */
  static async open(dialect: Dialect): Promise<Scenario> {
    const store = await openTestStore(dialect);
    await ensureDefaultProject(store);
    return new Scenario("default", store);
  }

  private base(spec: { tool: string; toolVersion?: string | null; release?: string | null; sdkVersion?: string | null }) {
    return { tool: spec.tool, toolVersion: spec.toolVersion ?? null, release: spec.release ?? null, sdkVersion: spec.sdkVersion ?? null };
  }

  /** n calls that fail with the code (attempt 1), then either recover on attempt 2 or end in a tool_error. */
  failing(n: number, spec: CallSpec): this {
    const batch = emptyRowBatch();
    for (let i = 0; i < n; i++) this.addFailingCall(batch, spec);
    this.enqueue(batch);
    return this;
  }

  /** n final errors with no spans, as a source that records only final errors sends them. */
  errorsOnly(n: number, spec: CallSpec): this {
    const batch = emptyRowBatch();
    for (let i = 0; i < n; i++) this.addFailingCall(batch, spec);
    batch.spans.length = 0;
    this.enqueue(batch);
    return this;
  }

  /** n calls that succeed on the first attempt. */
  ok(n: number, spec: { tool: string; toolVersion?: string | null; release?: string | null; sdkVersion?: string | null; day?: number }): this {
    const batch = emptyRowBatch();
    for (let i = 0; i < n; i++) {
      const id = ++this.seq;
      const at = T0 + (spec.day ?? 0) * DAY + id * 1000;
      batch.spans.push({ index: batch.spans.length, row: this.span(`run-${id}`, `call-${id}`, 1, at, spec, { outcome: "ok" }) });
    }
    this.enqueue(batch);
    return this;
  }

  private addFailingCall(batch: RowBatch, spec: CallSpec): void {
    const id = ++this.seq;
    const runId = `run-${id}`;
    const callId = `call-${id}`;
    const at = T0 + (spec.day ?? 0) * DAY + id * 1000;
    batch.spans.push({
      index: batch.spans.length,
      row: this.span(runId, callId, 1, at, spec, {
        outcome: spec.outcome ?? "failed",
        code: spec.code,
        errorClass: spec.errorClass === undefined ? "ToolFailure" : spec.errorClass,
        retryable: spec.retryable === undefined ? true : spec.retryable,
        retryAfterMs: spec.retryAfterMs ?? null,
        decision: spec.decision ?? (spec.recovers ? "retried" : "surfaced"),
      }),
    });
    if (spec.recovers) {
      batch.spans.push({ index: batch.spans.length, row: this.span(runId, callId, 2, at + 500, spec, { outcome: "ok" }) });
      return;
    }
    const err: ToolErrorRow = {
      eventId: `err-${id}`,
      runId,
      callId,
      tool: spec.tool,
      toolVersion: spec.errorToolVersion !== undefined ? spec.errorToolVersion : (spec.toolVersion ?? null),
      release: spec.release ?? null,
      service: "agent",
      environment: null,
      code: spec.code,
      errorClass: spec.errorClass === undefined ? "ToolFailure" : spec.errorClass,
      retryable: spec.retryable === undefined ? true : spec.retryable,
      attempts: 1,
      decision: spec.decision ?? "surfaced",
      told: spec.told ?? `${spec.code}: request ${id} failed`,
      derived: null,
      occurredAt: at + 200,
      source: "native",
      experiment: null,
      variant: null,
    };
    batch.toolErrors.push({ index: batch.toolErrors.length, row: err });
  }

  span(runId: string, callId: string, attempt: number, at: number, spec: { tool: string; toolVersion?: string | null; release?: string | null; sdkVersion?: string | null }, over: Partial<SpanRow>): SpanRow {
    return {
      spanId: `${callId}-a${attempt}`,
      traceId: null,
      parentSpanId: null,
      startedSubNs: null,
      runId,
      callId,
      ...this.base(spec),
      service: "agent",
      environment: null,
      sdkName: null,
      attempt,
      startedAt: at,
      endedAt: at + 100,
      outcome: null,
      code: null,
      errorClass: null,
      retryable: null,
      retryAfterMs: null,
      backoffMs: null,
      decision: null,
      permitted: true,
      abandoned: false,
      message: null,
      derived: null,
      argsHash: null,
      afterError: null,
      source: "native",
      ...over,
    };
  }

  private enqueue(batch: RowBatch): Promise<unknown> {
    this.pending = this.pending.then(() => writeRows(this.store, this.projectId, batch, T0));
    return this.pending;
  }

  /** Writes a batch after every queued one. */
  async write(batch: RowBatch): Promise<void> {
    await this.enqueue(batch);
  }

  /** Waits for every queued write (and throws the first one's error). */
  async settled(): Promise<void> {
    await this.pending;
  }

  /** Folds what was written and returns the project's findings. */
  async findings(): Promise<DriftFinding[]> {
    await this.settled();
    await refreshDrift(this.store, this.projectId, T0);
    return (await listDriftFindings(this.store, { project: this.projectId })).findings;
  }
}

/** The parts of a finding a scenario asserts on. */
export const brief = (f: DriftFinding) => ({
  kind: f.kind,
  metric: f.metric,
  code: f.code,
  renamedTo: f.renamedTo,
  tool: f.tool,
  from: f.fromRelease,
  to: f.toRelease,
  bump: f.bump,
  verdict: f.verdict,
  severity: f.severity,
  changes: f.changes,
  beforeCalls: f.beforeCalls,
  afterCalls: f.afterCalls,
});
