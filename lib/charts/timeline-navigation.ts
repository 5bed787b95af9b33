import type { TimelineLayout } from "./timeline-types";

/** An attempt of the timeline: a call row and the index of its bar. */
export interface TimelineSelection {
  row: number;
  bar: number;
}

/** The bar's start in ms from the origin (0 when the selection points nowhere). */
export function selectionStart(layout: Pick<TimelineLayout, "rows">, s: TimelineSelection): number {
  const r = layout.rows[s.row];
  return r?.kind === "call" ? (r.bars[s.bar]?.start ?? 0) : 0;
}

/**
 * The failing attempt after (`step` 1) or before (-1) the selection in time, wrapping around. From
 * an attempt that did not fail, the nearest failing one in that direction; null when none failed.
 */
export function stepFailing(layout: Pick<TimelineLayout, "rows" | "failing">, sel: TimelineSelection | null, step: 1 | -1): TimelineSelection | null {
  const list = layout.failing;
  if (list.length === 0) return null;
  const at = sel ? list.findIndex((f) => f.row === sel.row && f.bar === sel.bar) : -1;
  if (at >= 0) return list[(at + step + list.length) % list.length]!;
  const from = sel ? selectionStart(layout, sel) : step === 1 ? -Infinity : Infinity;
  const found = step === 1 ? list.findIndex((f) => selectionStart(layout, f) >= from) : list.findLastIndex((f) => selectionStart(layout, f) <= from);
  return list[found >= 0 ? found : step === 1 ? 0 : list.length - 1]!;
}

/** The attempt with this span id (as a link's `?attempt=` names it), or null when the run has none. */
export function findSpan(layout: Pick<TimelineLayout, "rows">, spanId: string): TimelineSelection | null {
  for (const row of layout.rows) {
    if (row.kind !== "call") continue;
    const bar = row.bars.findIndex((b) => b.spanId === spanId);
    if (bar >= 0) return { row: row.index, bar };
  }
  return null;
}
