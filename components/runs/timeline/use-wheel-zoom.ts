"use client";

import { useEffect, type RefObject } from "react";
import { panView, zoomView, type TimeView } from "@/lib/charts/timeline-viewport";

/** Ctrl/⌘+wheel zooms around the pointer; a sideways or shift+wheel pans. */
export function useWheelZoom(scroller: RefObject<HTMLElement | null>, labelWidth: number, bounds: TimeView, update: (next: (v: TimeView) => TimeView) => void) {
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Registered by hand: React's wheel listener is passive and cannot stop the page from zooming.
    const onWheel = (e: WheelEvent) => {
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        const rect = el.getBoundingClientRect();
        update((v) => {
          const anchor = v.start + ((e.clientX - rect.left - labelWidth) / Math.max(1, rect.width - labelWidth)) * (v.end - v.start);
          return zoomView(v, Math.exp(e.deltaY * 0.002), anchor, bounds);
        });
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        const delta = e.shiftKey && e.deltaX === 0 ? e.deltaY : e.deltaX;
        update((v) => panView(v, (delta / Math.max(1, el.clientWidth - labelWidth)) * (v.end - v.start), bounds));
      }
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [scroller, labelWidth, bounds, update]);
}
