"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { QueryError } from "@/components/dashboard/query-error";
import { DataTable, TableScroll, type Column } from "@/components/data-table";
import { formatCount, formatPct } from "@/lib/charts/format";
import { formatUtcMinute } from "@/lib/charts/time-format";
import type { ReleaseSummary } from "@/lib/contracts/releases";
import { releasesOptions } from "@/lib/query/releases";
import { AdoptionPanel } from "./adoption-panel";

export const releaseHref = (project: string, release: string) => `/releases/${encodeURIComponent(release)}?${new URLSearchParams({ project }).toString()}`;

/** The project's releases, newest first, each linking to its health page, under the adoption chart over the last `days` days. */
export function ReleasesView({ days }: { days: number }) {
  const project = useSearchParams().get("project") || "default";
  const q = useQuery(releasesOptions(project, days));
  const columns: Column<ReleaseSummary>[] = [
    { id: "release", header: "Release", rowHeader: true, cell: (r) => <Link href={releaseHref(project, r.release)}>{r.release}</Link> },
    { id: "runs", header: "Runs", align: "num", cell: (r) => formatCount(r.runs) },
    { id: "calls", header: "Calls", align: "num", cell: (r) => formatCount(r.calls) },
    { id: "share", header: "Calls not ok", align: "num", cell: (r) => (r.calls === 0 ? "no calls" : formatPct(r.callsNotOk / r.calls)) },
    { id: "seen", header: "First / last seen (UTC, hour)", cell: (r) => `${formatUtcMinute(r.firstSeen)} / ${formatUtcMinute(r.lastSeen)}` },
  ];
  return (
    <>
      <div className="page-head">
        <h1>Releases</h1>
      </div>
      <AdoptionPanel project={project} days={days} />
      <section className="panel" aria-labelledby="releases-title">
        <h2 id="releases-title">
          Every release, newest first{q.data ? <span className="count"> · ordered by {q.data.order === "semver" ? "version" : "first sighting"}</span> : null}
        </h2>
        {q.error ? <QueryError error={q.error} /> : null}
        <TableScroll label="Releases">
          <DataTable
            columns={columns}
            rows={q.data ? [...q.data.releases].reverse() : undefined}
            rowKey={(r) => r.release}
            ariaLabel="Releases"
            placeholder="Loading…"
            empty="No span has named a release yet: agents send it as `release` in the resource."
          />
        </TableScroll>
      </section>
    </>
  );
}
