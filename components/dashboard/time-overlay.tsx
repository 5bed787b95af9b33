"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatBucket, formatBucketZoned } from "@/lib/charts/time-format";

/** A vertical mark on a time chart: a release's first appearance. */
export interface TimeMarker {
  t: number;
  label: string;
}

// Under this many pixels a press is a click (a bar's own click keeps working), not a drag.
const DRAG_MIN_PX = 6;

/**
 * Where the chart's plot area is, in pixels from the wrapper's left edge: recharts' grid spans the
 * plot exactly; without one, the y-axis width and right margin every bar chart here uses.
 */
function plotArea(wrapper: HTMLElement): { left: number; width: number } {
  const box = wrapper.getBoundingClientRect();
  const grid = wrapper.querySelector(".recharts-cartesian-grid");
  const g = grid?.getBoundingClientRect();
  if (g && g.width > 0) return { left: g.left - box.left, width: g.width };
  return { left: 48, width: Math.max(1, box.width - 56) };
}

/**
 * Drag-to-zoom and markers for any time chart whose x axis spans `window` evenly (bucketed bars):
 * a drag across the plot calls `onZoom` with the selected time range, snapped to whole buckets; a
 * marker is a labelled line at its time. Works on the DOM around the chart, so chart components need
 * no change; the keyboard route to the same result is the filter bar's custom range.
 */
export function TimeOverlay({ window, markers = [], onZoom, children }: { window: { from: number; to: number; stepMs: number }; markers?: readonly TimeMarker[]; onZoom?: (from: number, to: number) => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  const [area, setArea] = useState<{ left: number; width: number } | null>(null);
  const span = window.to - window.from;
  const xOf = (t: number, a: { left: number; width: number }) => a.left + ((t - window.from) / span) * a.width;
  const tOf = (x: number, a: { left: number; width: number }) => window.from + Math.min(1, Math.max(0, (x - a.left) / a.width)) * span;
  const localX = (clientX: number) => clientX - ref.current!.getBoundingClientRect().left;

  // The plot area is known once recharts has laid the chart out, and moves when it resizes.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let raf = 0;
    const update = () => {
      const a = plotArea(el);
      setArea((prev) => (prev && prev.left === a.left && prev.width === a.width ? prev : a));
    };
    const schedule = () => {
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(update);
    };
    const ro = new ResizeObserver(schedule);
    ro.observe(el);
    const mo = new MutationObserver(schedule);
    mo.observe(el, { childList: true, subtree: true });
    schedule();
    return () => {
      ro.disconnect();
      mo.disconnect();
      cancelAnimationFrame(raf);
    };
  }, []);

  const onPointerDown = (e: React.PointerEvent) => {
    if (!onZoom || e.button !== 0) return;
    const x = localX(e.clientX);
    setDrag({ x0: x, x1: x });
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (drag) setDrag({ ...drag, x1: localX(e.clientX) });
  };
  const onPointerUp = () => {
    const a = ref.current ? plotArea(ref.current) : null;
    if (drag && a && onZoom && Math.abs(drag.x1 - drag.x0) >= DRAG_MIN_PX) {
      const lo = tOf(Math.min(drag.x0, drag.x1), a);
      const hi = tOf(Math.max(drag.x0, drag.x1), a);
      const from = Math.floor(lo / window.stepMs) * window.stepMs;
      const to = Math.max(from + window.stepMs, Math.ceil(hi / window.stepMs) * window.stepMs);
      onZoom(from, to);
    }
    setDrag(null);
  };

  return (
    <div
      ref={ref}
      className="time-overlay"
      data-testid="time-overlay"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => setDrag(null)}
      title={onZoom ? "Drag across the chart to zoom into that time range" : undefined}
    >
      {children}
      {drag && Math.abs(drag.x1 - drag.x0) >= DRAG_MIN_PX && (
        <div className="drag-band" style={{ left: Math.min(drag.x0, drag.x1), width: Math.abs(drag.x1 - drag.x0) }} aria-hidden="true" />
      )}
      {markers.length > 0 && (
        <MarkerLines markers={markers} window={window} xOf={(t) => (area ? xOf(t, area) : 0)} measured={area !== null} />
      )}
    </div>
  );
}

function MarkerLines({ markers, window, xOf, measured }: { markers: readonly TimeMarker[]; window: { stepMs: number }; xOf: (t: number) => number; measured: boolean }) {
  // The list names the zone once, in the header's switch; the line's tooltip stands alone, so it names it.
  const { zone } = useTimeZone();
  // Positions need the laid-out chart; until then the markers are listed, not drawn.
  return (
    <>
      {measured &&
        markers.map((m) => (
          <div key={m.label} className="release-mark" style={{ left: xOf(m.t) }} title={`release ${m.label} first seen ${formatBucketZoned(m.t, window.stepMs, zone)}`} aria-hidden="true">
            <span>{m.label}</span>
          </div>
        ))}
      <ul className="release-list" aria-label="Releases first seen in this range">
        {markers.map((m) => (
          <li key={m.label}>
            <span className="release-dot" aria-hidden="true" /> {m.label} <span className="num-muted">first seen {formatBucket(m.t, window.stepMs, zone)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
