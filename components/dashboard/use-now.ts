"use client";

import { useSyncExternalStore } from "react";

// The wall clock is outside React. It is read when a view subscribes (after hydration or mount), so
// the server render and the first client render agree on `initial`; the view then re-renders once.
let subscribedAt = 0;
const subscribe = () => {
  subscribedAt = Date.now();
  return () => {
    subscribedAt = 0;
  };
};

/** Hydration-safe "now": `initial` on the server and in the first render, the time the view mounted after. */
export function useNow(initial: number): number {
  return useSyncExternalStore(subscribe, () => subscribedAt || initial, () => initial);
}
