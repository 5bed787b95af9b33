import { lazy, Suspense } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatCountOf } from "@/lib/charts/format";
import type { TimelineLayout } from "@/lib/charts/timeline-layout";
import { formatDuration, OUTCOME_LABELS } from "@/lib/charts/timeline-labels";
import { formatTimeMs } from "@/lib/charts/time-format";
import { outcomeVar } from "@/lib/charts/palette";
import { zoneLabel } from "@/lib/charts/time-zone";
import type { RunTimeline } from "@/lib/contracts/runs";
import styles from "./runs.module.css";
import { runTraceId, TraceFacts } from "./trace-facts";

// Only a run with missing or inconsistent data loads the notes that say so.
const RunNotes = lazy(() => import("./run-notes").then((m) => ({ default: m.RunNotes })));

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
const unknown = <span className={styles.muted}>unknown</span>;

/** The run's record (or its absence), retry budgets per tool, and the colour legend. */
export function RunSummary({ project, timeline, layout }: { project: string; timeline: RunTimeline; layout: TimelineLayout }) {
  const run = timeline.run;
  const attempts = layout.rows.reduce((n, r) => n + (r.kind === "call" ? r.bars.length : 0), 0);
  const budget = layout.budgets[0];
  const { zone, label } = useTimeZone();
  const started = run && run.startedAt === null ? null : layout.origin;
  const trace = runTraceId(timeline);
  return (
    <>
      <h1 className={styles.title}>
        Run <span className={styles.mono}>{timeline.runId}</span>
        {run ? (
          <span className={styles.state} data-state={run.state}>
            {run.state}
          </span>
        ) : (
          <span className={styles.state} data-state="missing">
            run record missing
          </span>
        )}
      </h1>
      {!run || run.startedAt === null || layout.incomplete.attempts > 0 ? (
        <Suspense fallback={null}>
          <RunNotes run={run} incomplete={layout.incomplete} />
        </Suspense>
      ) : null}
      <dl className={`${styles.panel} ${styles.facts}`}>
        <Fact label="Run id">
          <span className={styles.mono}>{timeline.runId}</span>{" "}
          <CopyButton text={timeline.runId} label={`Copy the run id ${timeline.runId}`} />
        </Fact>
        <Fact label="Agent">{run?.agent ?? unknown}</Fact>
        <Fact label="Release">{run?.release ?? unknown}</Fact>
        <Fact label="Environment">{run?.environment ?? unknown}</Fact>
        <Fact label="SDK">{run?.sdkName ? `${run.sdkName} ${run.sdkVersion ?? ""}` : unknown}</Fact>
        <Fact label={`Started (${started === null ? label : zoneLabel(started, zone)})`}>{started === null ? unknown : formatTimeMs(started, zone)}</Fact>
        <Fact label="Duration">{layout.runEnd !== null && run?.startedAt != null ? formatDuration(layout.runEnd) : unknown}</Fact>
        <Fact label="Deadline">{layout.deadline !== null ? `+${formatDuration(layout.deadline)}` : unknown}</Fact>
        <Fact label="Tool calls / attempts">
          {formatCountOf(timeline.page.totalCalls ?? layout.rows.length - layout.budgets.length, "call")} /{" "}
          {formatCountOf(timeline.page.totalAttempts ?? attempts, "attempt")}
        </Fact>
        <Fact label={trace.traces > 1 ? `Trace (1 of ${trace.traces})` : "Trace"}>
          <TraceFacts project={project} traceId={trace.traceId} spanId={trace.spanId} what="run" />
        </Fact>
        {run?.error ? <Fact label="Run error">{run.error}</Fact> : null}
        {run?.unansweredToolUses != null ? (
          <Fact label="Unanswered tool uses">
            <span data-testid="unanswered-tool-uses" data-count={run.unansweredToolUses}>
              {run.unansweredToolUses === 0 ? "none: every tool call the model asked for got a result" : `${formatCountOf(run.unansweredToolUses, "tool call")} the model asked for got no result`}
            </span>
          </Fact>
        ) : null}
      </dl>
      <section className={styles.panel} aria-label="Retry budget per tool">
        <div className={styles.muted} style={{ fontSize: 12, marginBottom: 6 }}>
          Retries consumed per tool against the run&apos;s budget of {budget?.budget ?? "—"} retries per tool
          {budget?.assumed ? " (assumed: the runtime default, the run record does not say)" : ""}
        </div>
        <div className={styles.budgets}>
          {layout.budgets.map((b) => (
            <div key={b.tool} className={styles.budget} data-testid="budget">
              <span>
                <strong>{b.tool}</strong> {b.retriesUsed} / {b.budget}
                {b.assumed ? " (assumed)" : ""}
              </span>
              <div className={styles.meter} data-full={b.retriesUsed >= b.budget}>
                <span style={{ width: `${Math.min(100, (100 * b.retriesUsed) / Math.max(1, b.budget))}%` }} />
              </div>
            </div>
          ))}
        </div>
      </section>
      <div className={styles.legend} aria-label="Legend" data-testid="timeline-legend">
        {Object.entries(OUTCOME_LABELS).map(([k, label]) => (
          <span key={k} data-legend={k}>
            <span className={styles.swatch} style={{ background: outcomeVar(k) }} />
            {label}
          </span>
        ))}
        <span data-legend="unknown">
          <span className={styles.swatch} style={{ background: outcomeVar("unknown") }} />
          outcome unknown
        </span>
        <span data-legend="backoff">
          <span className={styles.legendBackoff} />
          backoff waited
        </span>
        <span data-legend="retry-after">
          <span className={styles.legendRetryAfter} />
          retry_after asked
        </span>
        <span data-legend="deadline">
          <span className={styles.legendLine} style={{ borderLeft: "2px dashed var(--c-deadline)" }} />
          deadline
        </span>
        <span data-legend="run-end">
          <span className={styles.legendLine} style={{ borderLeft: "2px solid var(--c-run-end)" }} />
          run ended
        </span>
        <span data-legend="run-start">
          <span className={styles.legendLine} style={{ borderLeft: "1px solid var(--muted)" }} />
          run started (time 0)
        </span>
      </div>
    </>
  );
}
