"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { layoutTimeline } from "@/lib/charts/timeline-layout";
import { findSpan } from "@/lib/charts/timeline-navigation";
import { toldArrows } from "@/lib/charts/told-arrows";
import type { RunTimeline } from "@/lib/contracts/runs";
import { runTimelineOptions } from "@/lib/query/run-timeline";
import { useMediaQuery } from "@/components/dashboard/use-media-query";
import { AttemptDetails } from "./attempt-details";
import { RunSummary } from "./run-summary";
import { TimelineChart, type Selection } from "./timeline-chart";
import { ToldStepsList } from "./timeline/told-arrows";
import styles from "./runs.module.css";

// Only a phone draws the calls as a list, and only once hydrated (the server renders the lanes):
// its script loads then, not with every desktop visit.
const RunCallList = lazy(() => import("./run-call-list").then((m) => ({ default: m.RunCallList })));
// Only a run longer than a page loads the pager (and the code that appends pages).
const RunPager = lazy(() => import("./run-pager").then((m) => ({ default: m.RunPager })));

/** One run's retry timeline: summary, the lanes, and the selected attempt's details. */
export function RunTimelineView({ project, runId, initialJson }: { project: string; runId: string; initialJson?: string }) {
  const { data: first, error } = useQuery({
    ...runTimelineOptions(project, runId),
    // The server's own read of the run's first page (typed by the same contract), so the first paint has lanes.
    initialData: initialJson ? () => JSON.parse(initialJson) as RunTimeline : undefined,
  });
  // The first page with the pages loaded after it.
  const [more, setMore] = useState<RunTimeline | null>(null);
  const data = more ?? first;
  const layout = useMemo(() => (data ? layoutTimeline(data) : null), [data]);
  const arrows = useMemo(() => (data && layout ? toldArrows(layout, data.toldSteps) : []), [data, layout]);
  const searchParams = useSearchParams();
  const linked = searchParams.get("attempt");
  const [picked, setPicked] = useState<Selection | null | undefined>(undefined);
  // A phone cannot draw the time axis legibly (lanes ~60 px wide): it gets the calls as a list.
  const phone = useMediaQuery("(max-width: 760px)");

  // The selected attempt is in the URL (`?attempt=<span id>`) so that a link can point at it.
  const initial = useMemo(() => (layout && linked ? findSpan(layout, linked) : null), [layout, linked]);
  const selected = picked === undefined ? initial : picked;

  const select = useCallback(
    (next: Selection | null) => {
      setPicked(next);
      const url = new URL(window.location.href);
      const row = next && layout?.rows[next.row];
      const spanId = row && row.kind === "call" ? row.bars[next.bar]?.spanId : undefined;
      if (spanId) url.searchParams.set("attempt", spanId);
      else url.searchParams.delete("attempt");
      window.history.replaceState(null, "", url);
    },
    [layout],
  );

  if (error) {
    return (
      <p role="alert" className={styles.banner}>
        Could not load run {runId}: {error.message}
      </p>
    );
  }
  if (!data || !layout) return <p className={styles.muted}>Loading run…</p>;
  return (
    <div className={styles.page}>
      <RunSummary project={project} timeline={data} layout={layout} />
      {phone ? (
        <>
          <Suspense fallback={<p className={styles.muted}>Loading the calls…</p>}>
            <RunCallList timeline={data} layout={layout} />
          </Suspense>
          <ToldStepsList arrows={arrows} />
        </>
      ) : (
      <div className={styles.layout}>
        <div>
          <TimelineChart layout={layout} arrows={arrows} selected={selected} onSelect={select} />
          <ToldStepsList arrows={arrows} />
        </div>
        <AttemptDetails project={project} timeline={data} layout={layout} selected={selected} />
      </div>
      )}
      {data.page.next !== null || more ? (
        <Suspense fallback={null}>
          <RunPager project={project} timeline={data} onPage={setMore} />
        </Suspense>
      ) : null}
    </div>
  );
}
