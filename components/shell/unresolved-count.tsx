"use client";

import { useQuery } from "@tanstack/react-query";
import { issuesOptions } from "@/lib/query/issues";

/** The project's open and regressed issues, next to the Issues link; nothing while unknown or when the caller cannot read them. */
export function UnresolvedCount({ project }: { project: string }) {
  const { data } = useQuery({ ...issuesOptions(project), refetchInterval: 30_000, retry: false });
  if (!data || data.counts.unresolved === 0) return null;
  return (
    <span className="nav-count" aria-label={`${data.counts.unresolved} unresolved`} data-testid="issues-count">
      {" "}
      {data.counts.unresolved}
    </span>
  );
}
