"use client";

import { useCallback, useState } from "react";
import type { TimelineSelection } from "@/lib/charts/timeline-navigation";
import type { AttemptBar, TimelineRow } from "@/lib/charts/timeline-types";
import { revealSpan, zoomAnchor, zoomView, type TimeView } from "@/lib/charts/timeline-viewport";

/** The selected attempt's bar, if the selection points at one. */
function selectedBar(selected: TimelineSelection | null, rows: readonly TimelineRow[]): AttemptBar | undefined {
  const row = selected ? rows[selected.row] : undefined;
  return row?.kind === "call" && selected ? row.bars[selected.bar] : undefined;
}

/** `view` panned so that the selected attempt is on screen. */
function revealSelection(view: TimeView, selected: TimelineSelection | null, rows: readonly TimelineRow[], bounds: TimeView): TimeView {
  const bar = selectedBar(selected, rows);
  return bar ? revealSpan(view, Math.min(bar.start, bar.end), Math.max(bar.start, bar.end), bounds) : view;
}

/**
 * The visible time window. It starts fitted to the data (`fitted`: the attempts, not the deadline)
 * and goes back to it when the layout changes; pan and zoom-out may reach `bounds` (the run's marks
 * too). A newly selected attempt is panned into view; the zoom keys zoom around it (else around
 * the data's middle). Both adjust during render, from the previous inputs kept in state, so no
 * frame shows the stale window.
 */
export function useTimeView(fitted: TimeView, bounds: TimeView, selected: TimelineSelection | null, rows: readonly TimelineRow[]) {
  const [state, setState] = useState(() => ({ fitted, selected, view: revealSelection(fitted, selected, rows, bounds) }));
  let current = state;
  if (state.fitted !== fitted || state.selected !== selected) {
    const base = state.fitted !== fitted ? fitted : state.view;
    current = { fitted, selected, view: revealSelection(base, selected, rows, bounds) };
    setState(current);
  }
  const update = useCallback((next: (v: TimeView) => TimeView) => setState((s) => ({ ...s, view: next(s.view) })), []);
  const zoomBy = useCallback((factor: number, anchor?: number) => update((v) => zoomView(v, factor, anchor ?? (v.start + v.end) / 2, bounds)), [update, bounds]);
  /** The keyboard and toolbar zoom: around the selected attempt, else the middle of the data. */
  const zoomAround = useCallback(
    (factor: number) => {
      const bar = selectedBar(current.selected, rows);
      zoomBy(factor, zoomAnchor(bar ? { start: Math.min(bar.start, bar.end), end: Math.max(bar.start, bar.end) } : null, fitted));
    },
    [zoomBy, current.selected, rows, fitted],
  );
  const fit = useCallback(() => update(() => fitted), [update, fitted]);
  return { view: current.view, update, zoomBy, zoomAround, fit };
}
