"use client";

import { useEffect, useLayoutEffect, useState, type RefObject } from "react";

export interface ViewportSize {
  /** Height of the scroll viewport. */
  height: number;
  /** Width of the time track (the viewport minus the label column). */
  width: number;
  /** Width of the vertical scrollbar, which the axis and overlay leave free. */
  scrollbar: number;
}

// Before the first measurement (and on the server) the chart assumes a typical viewport.
const ASSUMED_VIEWPORT: ViewportSize = { height: 720, width: 900, scrollbar: 0 };

const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/** The scroller's size, measured before paint and again whenever it resizes. */
export function useViewportSize(scroller: RefObject<HTMLElement | null>, labelWidth: number): ViewportSize {
  const [size, setSize] = useState(ASSUMED_VIEWPORT);
  useIsoLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setSize({ height: el.clientHeight, width: Math.max(1, el.clientWidth - labelWidth), scrollbar: el.offsetWidth - el.clientWidth });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [scroller, labelWidth]);
  return size;
}
