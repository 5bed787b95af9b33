import type { RunTimeline } from "@/lib/contracts/runs";
import { layoutCallAttempts, type BarContext } from "./timeline-bars";
import { finalDecision } from "./timeline-final";
import { callStart, timelineFrame } from "./timeline-frame";
import { groupCallsByTool } from "./timeline-lanes";
import { failingOrder, incompleteCounts, timelineDataDomain, timelineDomain, toolBudgets } from "./timeline-summary";
import { LANE_HEIGHT, type TimelineLayout, type TimelineRow, type ToolRow } from "./timeline-types";

export * from "./timeline-types";

/** One header row per tool, then one lane per call of that tool, `LANE_HEIGHT` apart. */
function timelineRows(t: Omit<RunTimeline, "page">, byTool: Map<string, number[]>, ctx: BarContext): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const [tool, callIndexes] of byTool) {
    const header: ToolRow = { kind: "tool", index: rows.length, y: rows.length * LANE_HEIGHT, tool, calls: callIndexes.length, retriesUsed: 0 };
    rows.push(header);
    for (const callIndex of callIndexes) {
      const call = t.calls[callIndex]!;
      const { bars, gaps, missingAttempts, retries, lastRetryAfterMs } = layoutCallAttempts(call, ctx);
      header.retriesUsed += retries;
      rows.push({
        kind: "call",
        index: rows.length,
        y: rows.length * LANE_HEIGHT,
        tool,
        callId: call.callId,
        callIndex,
        bars,
        gaps,
        missingAttempts,
        lastRetryAfterMs,
        final: finalDecision(call, bars, retries),
        retries,
      });
    }
  }
  return rows;
}

/**
 * The data's extent, widened to the run's marks (start, end, deadline) that lie within half its
 * span: a run end 24 ms after the last attempt belongs in the fitted view, a deadline ten minutes
 * away does not (it is said at the edge instead).
 */
export function withNearMarks(data: { start: number; end: number }, marks: readonly (number | null)[]): { start: number; end: number } {
  const reach = Math.max(1, data.end - data.start) * 0.5;
  let { start, end } = data;
  for (const m of marks) {
    if (m === null) continue;
    if (m < start && start - m <= reach) start = m;
    if (m > end && m - end <= reach) end = m;
  }
  return { start, end };
}

/**
 * Lays out a run's retry timeline: one header row per tool and one lane per call (tools in order of
 * their first call, calls in start order), bars in ms from the origin so that zooming is a pure
 * rescale. Inconsistent data is flagged where it is, never dropped or reordered to look tidy.
 */
export function layoutTimeline(t: Omit<RunTimeline, "page">): TimelineLayout {
  const starts = t.calls.map((c) => callStart(c, t.t0));
  const frame = timelineFrame(t, starts);
  const str = (i: number | null): string | null => (i === null ? null : (t.strings[i] ?? null));
  const rows = timelineRows(t, groupCallsByTool(t.calls, starts), { frame, t0: t.t0, hasRunRecord: t.run !== null, str, codedBy: t.codedBy });
  const domain = timelineDomain(rows, frame);
  return {
    origin: frame.origin,
    domain,
    dataDomain: withNearMarks(timelineDataDomain(rows) ?? domain, [0, frame.runEnd, frame.deadline]),
    runRecordMissing: t.run === null,
    runEnd: frame.runEnd,
    deadline: frame.deadline,
    rows,
    height: rows.length * LANE_HEIGHT,
    budgets: toolBudgets(rows, t.run),
    failing: failingOrder(rows),
    incomplete: incompleteCounts(rows),
  };
}
