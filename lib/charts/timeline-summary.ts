import type { RunTimeline } from "@/lib/contracts/runs";
import type { TimelineFrame } from "./timeline-frame";
import { DEFAULT_MAX_TOOL_ATTEMPTS } from "@/lib/contracts/runtime-defaults";
import type { TimelineLayout, TimelineRow, ToolBudget } from "./timeline-types";

/**
 * The extent of everything drawn, in ms from the origin: time 0, the run's end and deadline, every
 * bar and every `retry_after` that was waited on. The last attempt's `retry_after` is left out: it
 * is said on the lane, and an hour-long ask would squash every bar into a line.
 */
export function timelineDomain(rows: readonly TimelineRow[], frame: Pick<TimelineFrame, "runEnd" | "deadline">): TimelineLayout["domain"] {
  let start = 0;
  let end = Math.max(0, frame.runEnd ?? 0, frame.deadline ?? 0);
  for (const row of rows) {
    if (row.kind !== "call") continue;
    for (const b of row.bars) {
      start = Math.min(start, b.start, b.end);
      end = Math.max(end, b.start, b.end);
    }
    for (const g of row.gaps) if (g.retryAfterAt !== null) end = Math.max(end, g.retryAfterAt);
  }
  return { start, end };
}

/**
 * The extent of the attempts alone (bars and the `retry_after`s that were waited on), which the
 * chart fits by default: a far deadline or a late run end would otherwise squash a 4 s run into a
 * few pixels. Null when no attempt was recorded (calls known only from their final error).
 */
export function timelineDataDomain(rows: readonly TimelineRow[]): TimelineLayout["domain"] | null {
  let start = Infinity;
  let end = -Infinity;
  for (const row of rows) {
    if (row.kind !== "call") continue;
    for (const b of row.bars) {
      start = Math.min(start, b.start, b.end);
      end = Math.max(end, b.start, b.end);
    }
    for (const g of row.gaps) if (g.retryAfterAt !== null) end = Math.max(end, g.retryAfterAt);
  }
  return start === Infinity ? null : { start, end };
}

/** Failing attempts in time order (ties: row order, then attempt order), for next/previous navigation. */
export function failingOrder(rows: readonly TimelineRow[]): TimelineLayout["failing"] {
  const failing: { row: number; bar: number; at: number }[] = [];
  for (const row of rows) {
    if (row.kind !== "call") continue;
    row.bars.forEach((b, i) => {
      if (b.failing) failing.push({ row: row.index, bar: i, at: b.start });
    });
  }
  failing.sort((a, b) => a.at - b.at || a.row - b.row || a.bar - b.bar);
  return failing.map(({ row, bar }) => ({ row, bar }));
}

/** Retries each tool used against its budget, the runtime default when the run record does not say. */
export function toolBudgets(rows: readonly TimelineRow[], run: RunTimeline["run"]): ToolBudget[] {
  const budget = run?.maxToolAttempts ?? DEFAULT_MAX_TOOL_ATTEMPTS;
  const assumed = run?.maxToolAttempts == null;
  return rows.flatMap((r) => (r.kind === "tool" ? [{ tool: r.tool, retriesUsed: r.retriesUsed, budget, assumed }] : []));
}

/** Flagged attempts, and calls with at least one, for the page's "incomplete data" summary. */
export function incompleteCounts(rows: readonly TimelineRow[]): TimelineLayout["incomplete"] {
  let attempts = 0;
  let calls = 0;
  for (const row of rows) {
    if (row.kind !== "call") continue;
    const flagged = row.bars.filter((b) => b.flags.length > 0).length;
    attempts += flagged;
    if (flagged > 0) calls++;
  }
  return { attempts, calls };
}
