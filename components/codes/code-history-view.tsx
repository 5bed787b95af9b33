"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChartFrame } from "@/components/charts/chart-states";
import { OutcomeChart } from "@/components/charts/outcome-chart";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { QueryError } from "@/components/dashboard/query-error";
import { StatTile } from "@/components/dashboard/stat-tile";
import { DriftBadge } from "@/components/drift/drift-badge";
import { useNow } from "@/components/overview/overview-view";
import { formatCount, formatPct, formatTime } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import { codeDetailQuery } from "@/lib/query/keys";
import { toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";
import { CodeReleaseSection } from "./code-release-section";
import { TwoMeanings } from "./codes-view";

const H = 220;

export function CodeHistoryView({ code }: { code: string }) {
  const { search, update, hrefWith } = useUrlState();
  const q = useQuery(codeDetailQuery(code, search));
  const d = q.data;
  const now = useNow(d?.window.to ?? 0);
  const chart = d ? prepareOutcomeSeries(d.outcomeSeries, d.window, now) : null;
  const s = d?.summary;
  return (
    <>
      <div className="crumbs">
        <Link href={hrefWith("/codes")}>Codes</Link> /
      </div>
      <div className="page-head">
        <h1 className="mono" data-testid="code-name">{code}</h1>
        <DriftBadge code={code} project={search.project} />
        {s && <TwoMeanings row={s} />}
        <Link href={`/runs${toQueryString({ project: search.project, range: search.range, from: search.from, to: search.to, code })}`}>runs with this code →</Link>
      </div>
      <FilterBar show={["outcome", "release", "service"]} />
      {q.error && <QueryError error={q.error} />}
      <div className="tiles">
        <StatTile label="Error class" value={<span style={{ fontSize: 14 }}>{s ? s.errorClasses.join(", ") || "—" : "…"}</span>} />
        <StatTile label="Retryable" value={s ? formatPct(s.retryableShare, 0) : "…"} hint={s ? `claimed: ${s.retryableValues.join(", ")}` : undefined} />
        <StatTile label="Failed attempts" value={s ? formatCount(s.failures) : d ? "0" : "…"} />
        <StatTile label="First / last seen" value={<span style={{ fontSize: 13 }}>{s ? `${formatTime(s.firstSeen)} → ${formatTime(s.lastSeen)}` : "…"}</span>} />
      </div>
      <section className="panel">
        <h2>Outcomes over time</h2>
        <ChartFrame label="Outcomes of this code over time" height={H} state={q.isPending ? "loading" : q.error ? "error" : !chart || chart.series.length === 0 ? "empty" : "ready"} message={q.error?.message ?? "No attempts with this code in this range."}>
          {chart && d && <OutcomeChart data={chart} stepMs={d.window.stepMs} height={H} onSelect={(outcome) => update({ outcome })} />}
        </ChartFrame>
      </section>
      <CodeReleaseSection code={code} project={search.project} />
      <div className="grid-2">
        <section className="panel">
          <h2>Tools that emit it</h2>
          <table className="data">
            <thead>
              <tr>
                <th className="text">tool</th>
                <th>attempts</th>
                <th>failed</th>
                <th className="declined-text">declined</th>
                <th className="refused-text">refused</th>
              </tr>
            </thead>
            <tbody>
              {d?.byTool.map((t) => (
                <tr key={t.tool}>
                  <td className="name">
                    <Link href={hrefWith(`/tools/${encodeURIComponent(t.tool)}`, { code })}>{t.tool}</Link>
                    <span className="cell-marks"><DriftBadge code={code} tool={t.tool} project={search.project} /></span>
                  </td>
                  <td>{formatCount(t.attempts)}</td>
                  <td>{formatCount(t.failures)}</td>
                  <td>{formatCount(t.declined)}</td>
                  <td>{formatCount(t.refused)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="panel">
          <h2>Meanings by release (all time)</h2>
          <div className="table-wrap">
          <table className="data" data-testid="meanings">
            <thead>
              <tr>
                <th className="text">release</th>
                <th className="text">tool</th>
                <th className="text">tool version</th>
                <th className="text">class</th>
                <th className="text">retryable</th>
                <th>first seen</th>
                <th>last seen</th>
              </tr>
            </thead>
            <tbody>
              {d?.meanings.map((m) => (
                <tr key={`${m.release}\u0000${m.tool}\u0000${m.toolVersion}\u0000${m.errorClass}\u0000${m.retryable}`}>
                  <td className="text mono">{m.release || "(unknown)"}</td>
                  <td className="name">{m.tool}</td>
                  <td className="text mono">{m.toolVersion || "—"}</td>
                  <td className="text">{m.errorClass || "—"}</td>
                  <td className="text">{m.retryable}</td>
                  <td>{formatTime(m.firstSeen)}</td>
                  <td>{formatTime(m.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </section>
      </div>
    </>
  );
}
