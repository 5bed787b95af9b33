"use client";

import { useState } from "react";
import type { CallRow, TimelineLayout } from "@/lib/charts/timeline-layout";
import { formatDuration, outcomeLabel } from "@/lib/charts/timeline-labels";
import type { RunTimeline } from "@/lib/contracts/runs";
import styles from "./runs.module.css";

/** Calls shown before "Show more": a phone lists a long run a page at a time. */
const PAGE = 50;

const wait = (v: number | null) => (v === null ? "not recorded" : formatDuration(v));

/**
 * The run as a vertical list for a phone: each call with its final code, decision and attempts, and
 * each attempt with its outcome, code, retry_after, backoff, the wait that followed and the loop's
 * decision; then what the model was told. The same facts as the timeline, without the time axis a
 * 390 px screen cannot draw.
 */
export function RunCallList({ timeline, layout }: { timeline: RunTimeline; layout: TimelineLayout }) {
  const [shown, setShown] = useState(PAGE);
  const calls = layout.rows.filter((r): r is CallRow => r.kind === "call");
  return (
    <section aria-label="Calls and attempts" data-testid="call-list">
      <ol className={styles.callList}>
        {calls.slice(0, shown).map((row) => (
          <CallItem key={`${row.tool}\u0000${row.callId}\u0000${row.callIndex}`} row={row} timeline={timeline} />
        ))}
      </ol>
      {calls.length > shown ? (
        <button type="button" className="btn" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, calls.length - shown)} more of {calls.length - shown} calls
        </button>
      ) : null}
    </section>
  );
}

function CallItem({ row, timeline }: { row: CallRow; timeline: RunTimeline }) {
  const error = timeline.calls[row.callIndex]?.error ?? null;
  const attempts = error?.attempts ?? row.bars.length;
  return (
    <li className={styles.callItem} data-call-id={row.callId}>
      <h3 className={styles.callHead}>
        {row.tool} <span className={styles.mono}>{row.callId}</span>
      </h3>
      <p className={styles.callFacts} data-testid="call-facts">
        <span className={styles.final} data-kind={row.final.kind}>
          {row.final.label}
        </span>
        {error?.code ? <span className={styles.mono}> {error.code}</span> : null} · {attempts} attempt{attempts === 1 ? "" : "s"}
      </p>
      <ol className={styles.attemptList}>
        {row.bars.map((bar, i) => {
          const gap = row.gaps[i];
          return (
            <li key={bar.spanId} data-testid="attempt-item">
              <strong>#{bar.attempt ?? "?"}</strong> {outcomeLabel(bar.outcome)}
              {bar.code ? <span className={styles.mono}> {bar.code}</span> : null} · {formatDuration(bar.end - bar.start)}
              {bar.retryAfterMs !== null ? ` · retry_after ${wait(bar.retryAfterMs)}` : ""}
              {bar.backoffMs !== null ? ` · backoff ${wait(bar.backoffMs)}` : ""}
              {gap ? ` · waited ${formatDuration(gap.waitedMs)}` : ""}
              {bar.decision ? ` · ${bar.decision}` : ""}
            </li>
          );
        })}
      </ol>
      {error?.told != null ? (
        <>
          <p className={styles.muted} style={{ margin: "4px 0 2px" }}>
            The model was told:
          </p>
          <pre className={styles.told} data-testid="call-told">
            {error.told}
          </pre>
        </>
      ) : null}
    </li>
  );
}
