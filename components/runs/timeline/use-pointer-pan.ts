"use client";

import { useRef, type MouseEvent, type PointerEvent } from "react";
import { panView, type TimeView } from "@/lib/charts/timeline-viewport";

/**
 * Dragging the time track pans; a double click zooms in around the pointer. Presses on a bar or on
 * the label column are left to them.
 */
export function usePointerPan({ view, trackWidth, labelWidth, bounds, update, zoomBy }: {
  view: TimeView;
  trackWidth: number;
  labelWidth: number;
  bounds: TimeView;
  update: (next: (v: TimeView) => TimeView) => void;
  zoomBy: (factor: number, anchor?: number) => void;
}) {
  const drag = useRef<{ x: number; view: TimeView } | null>(null);
  return {
    onPointerDown: (e: PointerEvent<HTMLElement>) => {
      if ((e.target as HTMLElement).closest("button") || e.clientX - e.currentTarget.getBoundingClientRect().left < labelWidth) return;
      drag.current = { x: e.clientX, view };
      e.currentTarget.setPointerCapture(e.pointerId);
    },
    onPointerMove: (e: PointerEvent<HTMLElement>) => {
      const d = drag.current;
      if (!d) return;
      update(() => panView(d.view, ((d.x - e.clientX) / trackWidth) * (d.view.end - d.view.start), bounds));
    },
    onPointerUp: () => {
      drag.current = null;
    },
    onDoubleClick: (e: MouseEvent<HTMLElement>) => {
      if ((e.target as HTMLElement).closest("button")) return;
      const x = e.clientX - e.currentTarget.getBoundingClientRect().left - labelWidth;
      zoomBy(0.5, view.start + (x / trackWidth) * (view.end - view.start));
    },
  };
}
