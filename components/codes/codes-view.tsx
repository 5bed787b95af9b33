"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { QueryError } from "@/components/dashboard/query-error";
import { DriftBadge } from "@/components/drift/drift-badge";
import { SortHeader } from "@/components/dashboard/sort-header";
import { formatCount, formatPct, formatTime } from "@/lib/charts/format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import type { CodeRow } from "@/lib/contracts/codes";
import { codesQuery } from "@/lib/query/keys";
import { useUrlState } from "@/lib/query/use-url-state";

/** Marks a code seen with more than one class or retryability: it means two things. */
export function TwoMeanings({ row }: { row: CodeRow }) {
  if (!row.conflicting) return null;
  return (
    <span className="chip warn-chip" title={`classes: ${row.errorClasses.join(", ")} · retryable: ${row.retryableValues.join(", ")}`} data-testid="two-meanings">
      ⚠ two meanings
    </span>
  );
}

export function CodesView() {
  const { search, update, hrefWith } = useUrlState();
  const q = useQuery({ ...codesQuery(search), placeholderData: keepPreviousData });
  const sort = search.sort ?? "failures";
  const dir = search.dir ?? "desc";
  const onSort = (column: string, d: "asc" | "desc") => update({ sort: column, dir: d });
  return (
    <>
      <div className="page-head">
        <h1>Codes</h1>
        <span className="sub">{q.data ? `${q.data.codes.length} codes` : "…"} · first/last seen are all-time sightings</span>
      </div>
      <FilterBar show={["outcome", "error_class", "release", "service"]} />
      {q.error && <QueryError error={q.error} />}
      <div className="panel table-wrap" style={{ minHeight: 200 }}>
        <table className="data" data-testid="codes-table">
          <thead>
            <tr>
              <SortHeader column="code" label="code" sort={sort} dir={dir} onSort={onSort} className="text" />
              <th className="text" scope="col">error class</th>
              <SortHeader column="retryable_share" label="retryable" sort={sort} dir={dir} onSort={onSort} />
              <SortHeader column="failures" label="failed" sort={sort} dir={dir} onSort={onSort} />
              <th className="text" scope="col">outcomes (attempts)</th>
              <SortHeader column="tools" label="tools" sort={sort} dir={dir} onSort={onSort} className="text" />
              <th className="text" scope="col">releases</th>
              <SortHeader column="first_seen" label="first seen" sort={sort} dir={dir} onSort={onSort} />
              <SortHeader column="last_seen" label="last seen" sort={sort} dir={dir} onSort={onSort} />
            </tr>
          </thead>
          <tbody>
            {q.data?.codes.map((c) => (
              <tr key={c.code} data-code={c.code}>
                <td className="name">
                  <Link href={hrefWith(`/codes/${encodeURIComponent(c.code)}`, { sort: undefined, dir: undefined })}>{c.code}</Link>
                  <span className="cell-marks"><DriftBadge code={c.code} project={search.project} />
                    <TwoMeanings row={c} />
                  </span>
                </td>
                <td className="text">{c.errorClasses.join(", ") || "—"}</td>
                <td>{formatPct(c.retryableShare, 0)}</td>
                <td>{formatCount(c.failures)}</td>
                <td className="text">
                  <span className="chips">
                    {c.outcomes.map((o) => (
                      <button key={o.outcome} type="button" className="chip" style={{ fontFamily: "var(--font)" }} onClick={() => update({ outcome: o.outcome })}>
                        <OutcomeSwatch outcome={o.outcome} /> {outcomeStyle(o.outcome).label} {formatCount(o.attempts)}
                      </button>
                    ))}
                  </span>
                </td>
                <td className="text">
                  <span className="chips">
                    {c.tools.map((t) => (
                      <Link key={t} className="chip" href={hrefWith(`/tools/${encodeURIComponent(t)}`, { sort: undefined, dir: undefined, code: c.code })}>
                        {t}
                      </Link>
                    ))}
                  </span>
                </td>
                <td className="text mono">{c.releases.join(", ")}</td>
                <td>{formatTime(c.firstSeen)}</td>
                <td>{formatTime(c.lastSeen)}</td>
              </tr>
            ))}
            {q.isPending && (
              <tr>
                <td colSpan={9} className="empty-state">Loading codes…</td>
              </tr>
            )}
            {q.data && q.data.codes.length === 0 && (
              <tr>
                <td colSpan={9} className="empty-state">No codes seen in this range.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
