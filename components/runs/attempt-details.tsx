"use client";

import { lazy, Suspense } from "react";
import type { TimelineLayout } from "@/lib/charts/timeline-layout";
import type { RunTimeline } from "@/lib/contracts/runs";
import type { Selection } from "./timeline-chart";
import styles from "./runs.module.css";

/** The panel's frame: its heading and a line, while nothing is selected or the details load. */
function Frame({ children }: { children: React.ReactNode }) {
  return (
    <aside className={`${styles.panel} ${styles.details}`} aria-label="Attempt details" data-testid="attempt-details">
      <h2>Attempt details</h2>
      <p className={styles.muted}>{children}</p>
    </aside>
  );
}

// An attempt's details (and the issue and trace links they draw) load with the first selection, or
// with the page when its address names an attempt: most visits start on the lanes.
const SelectedAttempt = lazy(() => import("./selected-attempt").then((m) => ({ default: m.SelectedAttempt })));

/** What the timeline's side panel shows: the selected attempt in full, or how to select one. */
export function AttemptDetails({ project, timeline, layout, selected }: { project: string; timeline: RunTimeline; layout: TimelineLayout; selected: Selection | null }) {
  const row = selected ? layout.rows[selected.row] : undefined;
  if (!selected || row?.kind !== "call" || !row.bars[selected.bar]) {
    return (
      <Frame>
        Select an attempt (click it, or press <kbd>j</kbd> for the first failing one) to see its outcome, code, waits, timings and what the model was told.
      </Frame>
    );
  }
  return (
    <Suspense fallback={<Frame>Loading the attempt…</Frame>}>
      <SelectedAttempt project={project} timeline={timeline} layout={layout} selected={selected} />
    </Suspense>
  );
}
