"use client";

import { useEffect, useEffectEvent } from "react";

/** Page-wide shortcuts of the timeline; ignored while typing in a form field or with a modifier held. */
export function useTimelineKeys(actions: Record<string, () => void>) {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  });
  useEffect(() => {
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
