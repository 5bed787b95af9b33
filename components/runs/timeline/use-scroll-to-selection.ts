"use client";

import { useEffect, type RefObject } from "react";
import type { TimelineSelection } from "@/lib/charts/timeline-navigation";
import { LANE_HEIGHT, type TimelineRow } from "@/lib/charts/timeline-types";

/** Scrolls the selected attempt's lane into view, then focuses its bar once it is drawn. */
export function useScrollToSelection(scroller: RefObject<HTMLElement | null>, selected: TimelineSelection | null, rows: readonly TimelineRow[]) {
  useEffect(() => {
    if (!selected) return;
    const row = rows[selected.row];
    const el = scroller.current;
    if (!row || row.kind !== "call" || !el) return;
    if (row.y < el.scrollTop || row.y + LANE_HEIGHT > el.scrollTop + el.clientHeight) {
      el.scrollTo({ top: Math.max(0, row.y - el.clientHeight / 2) });
    }
    const bar = row.bars[selected.bar];
    if (!bar) return;
    // The bar may only be rendered after the scroll and the pan re-render, hence the next frame.
    const frame = requestAnimationFrame(() => {
      el.querySelector<HTMLElement>(`[data-span-id="${CSS.escape(bar.spanId)}"]`)?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [scroller, selected, rows]);
}
