"use client";

import { useCallback, useEffect, useRef } from "react";
import { stepFailing, type TimelineSelection } from "@/lib/charts/timeline-navigation";
import type { TimelineLayout } from "@/lib/charts/timeline-types";

/** Moves the selection to the next (1) or previous (-1) failing attempt in time. */
export function useFailingNavigation(layout: TimelineLayout, selected: TimelineSelection | null, onSelect: (s: TimelineSelection) => void) {
  // Key presses can arrive faster than React re-renders, so moves read and write the latest selection here.
  const latest = useRef(selected);
  useEffect(() => {
    latest.current = selected;
  }, [selected]);
  return useCallback(
    (step: 1 | -1) => {
      const next = stepFailing(layout, latest.current, step);
      if (!next) return;
      latest.current = next;
      onSelect(next);
    },
    [layout, onSelect],
  );
}
