import { CopyButton } from "@/components/dashboard/copy-button";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import type { TimelineLayout } from "@/lib/charts/timeline-layout";
import { FLAG_LABELS, formatDuration, formatOffset, outcomeLabel } from "@/lib/charts/timeline-labels";
import { formatTimeMs } from "@/lib/charts/time-format";
import { ISSUE_OUTCOMES } from "@/lib/contracts/issues";
import type { RunTimeline } from "@/lib/contracts/runs";
import type { Selection } from "./timeline-chart";
import { IssueLink } from "@/components/issues/issue-links";
import styles from "./runs.module.css";
import { attemptTraceId, TraceFacts } from "./trace-facts";

// Formats whose final errors always carry the told text: there a null means the model was told nothing.
const TOLD_RECORDED = new Set(["native"]);

const yesNo = (v: boolean | null) => (v === null ? "unknown" : v ? "yes" : "no");
const ms = (v: number | null) => (v === null ? "not recorded" : formatDuration(v));

/**
 * The selected attempt in full, and for its call exactly what the model was told (as text); nothing
 * when the selection names no attempt (AttemptDetails says how to pick one).
 */
export function SelectedAttempt({ project, timeline, layout, selected }: { project: string; timeline: RunTimeline; layout: TimelineLayout; selected: Selection }) {
  const row = layout.rows[selected.row];
  const bar = row?.kind === "call" ? row.bars[selected.bar] : undefined;
  const { zone } = useTimeZone();
  if (!row || row.kind !== "call" || !bar) return null;
  const call = timeline.calls[row.callIndex]!;
  const gapAfter = row.gaps[selected.bar];
  return (
    <aside className={`${styles.panel} ${styles.details}`} aria-label="Attempt details" data-testid="attempt-details">
      <h2 className={styles.attemptTitle}>
        {row.tool} · <span className={styles.mono}>{row.callId}</span> · attempt {bar.attempt ?? "unknown"}
      </h2>
      <CopyButton text={row.callId} label={`Copy call id ${row.callId}`}>
        Copy call id
      </CopyButton>
      <dl className={styles.kv}>
        <dt>Outcome</dt>
        <dd data-testid="detail-outcome">{outcomeLabel(bar.outcome)}</dd>
        <dt>Code</dt>
        <dd className={styles.mono}>
          {bar.code ?? "none"}
          {bar.outcome !== null && ISSUE_OUTCOMES.includes(bar.outcome) ? (
            <>
              {" "}
              <IssueLink project={project} tool={row.tool} code={bar.code || bar.outcome} testId="attempt-issue-link" />
            </>
          ) : null}
        </dd>
        {bar.codeSource !== null ? (
          <>
            <dt>Code source</dt>
            <dd data-testid="detail-code-source">{bar.codeSource}</dd>
          </>
        ) : null}
        <dt>Error class</dt>
        <dd>{bar.errorClass ?? "none"}</dd>
        <dt>Retryable</dt>
        <dd>{yesNo(bar.retryable)}</dd>
        <dt>retry_after asked</dt>
        <dd data-testid="detail-retry-after">{ms(bar.retryAfterMs)}</dd>
        <dt>Backoff scheduled</dt>
        <dd>{ms(bar.backoffMs)}</dd>
        <dt>Waited until next</dt>
        <dd data-testid="detail-waited">{gapAfter ? formatDuration(gapAfter.waitedMs) : "no later attempt"}</dd>
        <dt>Loop decision</dt>
        <dd>{bar.decision ?? "not recorded"}</dd>
        <dt>Started</dt>
        <dd>
          {formatOffset(bar.start)} <span className={styles.muted}>({formatTimeMs(bar.startedAt, zone)})</span>
        </dd>
        <dt>Ended</dt>
        <dd>{formatOffset(bar.end)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(bar.end - bar.start)}</dd>
        <dt>Trace</dt>
        <dd>
          <TraceFacts project={project} traceId={attemptTraceId(timeline, row.callIndex, bar.tupleIndex)} spanId={bar.spanId} what="attempt" />
        </dd>
        {bar.message !== null ? (
          <>
            <dt>Message</dt>
            <dd>{bar.message}</dd>
          </>
        ) : null}
      </dl>
      {bar.flags.length > 0 ? (
        <ul className={styles.flags} aria-label="Data problems">
          {bar.flags.map((f) => (
            <li key={f}>{FLAG_LABELS[f] ?? f}</li>
          ))}
        </ul>
      ) : null}
      <h2>Final decision of this call</h2>
      <p style={{ margin: 0 }}>
        <span className={styles.final} data-kind={row.final.kind}>
          {row.final.label}
        </span>{" "}
        <span className={styles.muted}>
          (
          {row.final.source === "tool_error"
            ? "from the call's final error"
            : row.final.source === "span"
              ? "from the last attempt's decision"
              : "no decision recorded; derived from outcomes"}
          )
        </span>
      </p>
      {row.missingAttempts.length > 0 ? (
        <p className={styles.flags} style={{ margin: 0, padding: 0 }}>
          Attempt numbers never received: {row.missingAttempts.map(([x, y]) => (x === y ? `${x}` : `${x}–${y}`)).join(", ")}
        </p>
      ) : null}
      {call.error ? (
        <>
          <dl className={styles.kv}>
            <dt>Final code</dt>
            <dd className={styles.mono}>{call.error.code ?? "none"}</dd>
            <dt>Final class</dt>
            <dd>{call.error.errorClass ?? "unknown"}</dd>
            <dt>Attempts (reported)</dt>
            <dd>{call.error.attempts ?? "unknown"}</dd>
          </dl>
          {call.error.derived.length > 0 ? (
            <p className={styles.muted} style={{ margin: 0 }} data-testid="error-derived">
              Worked out by Faultline from the call&apos;s other records, not sent by the source: {call.error.derived.join(", ")}
            </p>
          ) : null}
          <h2>What the model was told</h2>
          {call.error.told === null ? (
            <p className={styles.muted} data-testid="told-none">
              {TOLD_RECORDED.has(call.error.source) ? "Nothing was told: the model never saw this error (for example, the run failed first)." : "Not recorded by this source."}
            </p>
          ) : (
            <pre className={styles.told} data-testid="told">
              {call.error.told}
            </pre>
          )}
        </>
      ) : null}
    </aside>
  );
}
