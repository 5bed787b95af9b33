"use client";

import { useQuery } from "@tanstack/react-query";
import { issueCountsOptions } from "@/lib/query/issue-counts";
import { useHydrated } from "./after-hydration";

/**
 * The project's open and regressed issues, next to the Issues link; nothing while unknown or when the
 * caller cannot read them. It reads the counts alone (not the Issues page's list, whose contract
 * would weigh on every page's script), and only after hydration, as the badge is no part of the
 * server render.
 */
export function UnresolvedCount({ project }: { project: string }) {
  return useHydrated() ? <Count project={project} /> : null;
}

function Count({ project }: { project: string }) {
  const { data } = useQuery({ ...issueCountsOptions(project), refetchInterval: 30_000, retry: false });
  if (!data || data.counts.unresolved === 0) return null;
  return (
    <span className="nav-count" aria-label={`${data.counts.unresolved} unresolved`} data-testid="issues-count">
      {" "}
      {data.counts.unresolved}
    </span>
  );
}
