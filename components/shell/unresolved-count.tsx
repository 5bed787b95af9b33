"use client";

import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { issuesOptions } from "@/lib/query/issues";

const noSubscribe = () => () => {};

/**
 * The project's open and regressed issues, next to the Issues link; nothing while unknown or when the
 * caller cannot read them. Asked only after hydration: the navigation renders before the Issues
 * page's HydrationBoundary, and a cache entry it made first would keep the page's prefetched list
 * out of the server render (React Query defers hydrating entries that already exist).
 */
export function UnresolvedCount({ project }: { project: string }) {
  const hydrated = useSyncExternalStore(noSubscribe, () => true, () => false);
  return hydrated ? <Count project={project} /> : null;
}

function Count({ project }: { project: string }) {
  const { data } = useQuery({ ...issuesOptions(project), refetchInterval: 30_000, retry: false });
  if (!data || data.counts.unresolved === 0) return null;
  return (
    <span className="nav-count" aria-label={`${data.counts.unresolved} unresolved`} data-testid="issues-count">
      {" "}
      {data.counts.unresolved}
    </span>
  );
}
