"use client";

import { lazy } from "react";
import { AfterHydration } from "@/components/shell/after-hydration";
import { CopyButton } from "@/components/dashboard/copy-button";
import { A, type RunTimeline } from "@/lib/contracts/run-timeline";
import styles from "./runs.module.css";

// The project's link is read in the browser after the first paint in any case: its read and contract
// load with it rather than with the page.
const TraceToolLink = lazy(() => import("./trace-tool-link").then((m) => ({ default: m.TraceToolLink })));

/** The trace id of one attempt (a tuple of the timeline), null when its source sent none. */
export function attemptTraceId(timeline: RunTimeline, callIndex: number, tupleIndex: number): string | null {
  const i = timeline.calls[callIndex]?.attempts[tupleIndex]?.[A.traceId];
  return i === null || i === undefined ? null : (timeline.strings[i] ?? null);
}

/** The run's trace: its agent span's, else the trace most of its attempts belong to (the first such on a tie). */
export function runTraceId(timeline: RunTimeline): { traceId: string | null; spanId: string | null; traces: number } {
  const counts = new Map<string, number>();
  for (const call of timeline.calls) {
    for (const a of call.attempts) {
      const i = a[A.traceId];
      if (i !== null) counts.set(timeline.strings[i]!, (counts.get(timeline.strings[i]!) ?? 0) + 1);
    }
  }
  const own = timeline.run?.traceId;
  if (own) return { traceId: own, spanId: timeline.run?.spanId ?? null, traces: new Set([own, ...counts.keys()]).size };
  let best: string | null = null;
  for (const [id, n] of counts) if (best === null || n > counts.get(best)!) best = id;
  return { traceId: best, spanId: null, traces: counts.size };
}

/**
 * A trace id (and span id) with a copy button and, when the project links a tracing tool, "Open in
 * <tool>" on the same trace there (a new tab; the URL is the admin's template, ids URL-encoded).
 */
export function TraceFacts({ project, traceId, spanId, what }: { project: string; traceId: string | null; spanId: string | null; what: "run" | "attempt" }) {
  if (traceId === null) return <span className={styles.muted}>none: this source sends no trace ids</span>;
  return (
    <span data-testid={`${what}-trace`}>
      <span className={styles.mono} data-testid={`${what}-trace-id`}>
        {traceId}
      </span>{" "}
      <CopyButton text={traceId} label={`Copy the trace id ${traceId}`} />
      <AfterHydration fallback={null}>
        <TraceToolLink project={project} traceId={traceId} spanId={spanId} what={what} />
      </AfterHydration>
      {spanId !== null && what === "attempt" ? (
        <>
          <br />
          span <span className={styles.mono}>{spanId}</span>
        </>
      ) : null}
    </span>
  );
}
