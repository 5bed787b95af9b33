"use client";

import { useState } from "react";
import { useHydrated } from "@/components/shell/after-hydration";
import { endpointUrl } from "@/lib/api/endpoint";
import { runTimelineEndpoints } from "@/lib/api/read/run-timeline";
import { formatCount, formatCountOf } from "@/lib/charts/format";
import { appendRunPage } from "@/lib/charts/merge-run-pages";
import { RUN_PAGE_ATTEMPTS, runTimelineSchema, type RunTimeline } from "@/lib/contracts/runs";
import { fetchJson } from "@/lib/query/fetch-json";
import styles from "./runs.module.css";

/**
 * How much of a long run is shown, and its next page on a click (not on scrolling: the lanes keep their
 * own scroll, so the end of the page is in view at once). The timeline (chart, call list, budgets,
 * told steps) covers the calls loaded so far.
 */
export function RunPager({ project, timeline, onPage }: { project: string; timeline: RunTimeline; onPage: (merged: RunTimeline) => void }) {
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The server renders the button; it stays disabled until this chunk has hydrated it, so an early
  // click is not lost.
  const hydrated = useHydrated();
  const { next, totalCalls, totalAttempts } = timeline.page;
  const attempts = timeline.calls.reduce((n, c) => n + c.attempts.length, 0);

  const load = async () => {
    if (next === null || loading) return;
    setLoading(true);
    setFailure(null);
    try {
      const url = endpointUrl(runTimelineEndpoints.runTimeline, { params: { runId: timeline.runId }, search: { project, after: next } });
      onPage(appendRunPage(timeline, await fetchJson(url, runTimelineSchema)));
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className={`${styles.panel} ${styles.pager}`} data-testid="run-pager" aria-live="polite">
      <span data-testid="run-pager-shown" data-calls={timeline.calls.length} data-attempts={attempts}>
        {next === null
          ? `All ${formatCountOf(timeline.calls.length, "call")} (${formatCountOf(attempts, "attempt")}) of the run are shown.`
          : `Showing ${formatCount(timeline.calls.length)} of ${formatCountOf(totalCalls ?? timeline.calls.length, "call")} (${formatCount(attempts)} of ${formatCountOf(totalAttempts ?? attempts, "attempt")}); the chart, budgets and told steps cover the calls shown.`}
      </span>
      {next !== null ? (
        <button type="button" className="btn" onClick={() => void load()} disabled={loading || !hydrated}>
          {loading ? "Loading…" : `Load ${formatCount(Math.min(RUN_PAGE_ATTEMPTS, (totalAttempts ?? Infinity) - attempts))} more attempts`}
        </button>
      ) : null}
      {failure !== null ? (
        <span role="alert" className={styles.banner}>
          Could not load more of the run: {failure}
        </span>
      ) : null}
    </div>
  );
}
