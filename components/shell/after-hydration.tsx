"use client";

import { Suspense, useSyncExternalStore, type ReactNode } from "react";

const noSubscribe = () => () => {};

/** False in the server render and while hydrating, true afterwards: what only the browser renders waits for it, so both renders agree. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscribe, () => true, () => false);
}

/**
 * Its children once the page has hydrated, `fallback` before that and while a lazy child's script
 * loads. For parts that read their data in the browser anyway (nothing to render on the server),
 * loaded with React.lazy: next/dynamic would add its own loader to pages that have none.
 */
export function AfterHydration({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return useHydrated() ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
