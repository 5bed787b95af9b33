"use client";

import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { refreshMs } from "./refresh";

/**
 * A dashboard read that never blanks the screen: while a new filter loads, the previous answer
 * stays (React Query's placeholder); when the new one fails (the server stopped), the last answer
 * that did load stays too and `stale` says so, so the view shows it under an error with a retry.
 * With `refresh=10s|30s|1m` in the URL it refetches on that interval while the tab is visible.
 */
export function useKeptQuery<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>) {
  // Auto-refresh (the URL's `refresh`); React Query pauses an interval while the tab is hidden.
  const interval = refreshMs(useSearchParams().get("refresh"));
  const q = useQuery({ ...options, placeholderData: keepPreviousData, refetchInterval: interval, refetchIntervalInBackground: false });
  const [last, setLast] = useState<T | undefined>(undefined);
  // React's "state from the previous render" pattern: remember the last answer that really loaded.
  if (q.data !== undefined && !q.isPlaceholderData && q.data !== last) setLast(q.data);
  const kept = q.data ?? (q.isError ? last : undefined);
  return { ...q, data: kept, stale: q.isPlaceholderData || (q.isError && kept !== undefined) };
}
