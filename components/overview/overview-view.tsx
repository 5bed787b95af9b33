"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, useEffect } from "react";
import { ChartFrame } from "@/components/charts/chart-states";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { OutcomeChart } from "@/components/charts/outcome-chart";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { DriftBadge } from "@/components/drift/drift-badge";
import { QueryError } from "@/components/dashboard/query-error";
import { StatTile } from "@/components/dashboard/stat-tile";
import { formatCount, formatMs, formatPct } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import { overviewQuery } from "@/lib/query/keys";
import { useUrlState } from "@/lib/query/use-url-state";
import { FirstRunGuide } from "./first-run-guide";

const CHART_HEIGHT = 240;

/** Hydration-safe "now": the server render and the first client render agree, then it ticks. */
export function useNow(initial: number): number {
  const [now, setNow] = useState(initial);
  useEffect(() => setNow(Date.now()), []);
  return now;
}

export function OverviewView() {
  const { search, update, hrefWith } = useUrlState();
  const q = useQuery(overviewQuery(search));
  const now = useNow(q.data?.window.to ?? 0);
  const project = search.project ?? "default";
  if (q.data && !q.data.hasData) return <FirstRunGuide project={project} />;
  const d = q.data;
  const t = d?.totals;
  const chart = d ? prepareOutcomeSeries(d.series, d.window, now) : null;
  const val = (f: (x: NonNullable<typeof t>) => string) => (t ? f(t) : "…");
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <span className="sub">Which tools fail, with which codes, how failures end and how retries behave.</span>
      </div>
      <FilterBar />
      {q.error && <QueryError error={q.error} />}
      <div className="tiles">
        <StatTile testId="tile-calls" label="Calls" value={val((x) => formatCount(x.calls))} hint={val((x) => `${formatCount(x.attempts)} attempts${x.unnumbered > 0 ? ` · ${formatCount(x.unnumbered)} without an attempt number, each counted as a call` : ""}`)} />
        <StatTile testId="tile-failure-rate" label="Failure rate" value={val((x) => formatPct(x.failureRate))} hint={val((x) => `${formatCount(x.failures)} attempts not ok`)} />
        <StatTile testId="tile-declined" label={<><OutcomeSwatch outcome="declined" /> Declined</>} value={val((x) => formatCount(x.declined))} hint="the tool said no" />
        <StatTile testId="tile-refused" label={<><OutcomeSwatch outcome="refused" /> Refused</>} value={val((x) => formatCount(x.refused))} hint="permission said no" />
        <StatTile testId="tile-retries" label="Retries spent" value={val((x) => formatCount(x.retries))} hint={val((x) => `${formatCount(x.retriedCalls)} calls retried · ${formatMs(x.backoffWaitedMs)} waited`)} />
        <StatTile testId="tile-failed-closed" label="Failed closed on retry_after" value={val((x) => formatCount(x.failedClosed))} hint="wait asked was beyond cap or deadline" />
      </div>
      <section className="panel" aria-labelledby="mix-title">
        <div className="panel-head">
          <h2 id="mix-title">Outcome mix over time</h2>
          <span className="note">attempts per {d ? formatMs(d.window.stepMs) : "bucket"} · click a bar to narrow</span>
        </div>
        <ChartFrame
          label="Outcome mix over time"
          height={CHART_HEIGHT}
          state={q.isPending ? "loading" : q.error ? "error" : chart && chart.series.length === 0 ? "empty" : "ready"}
          message={q.error ? q.error.message : "No attempts in this range (zero everywhere)."}
        >
          {chart && d && <OutcomeChart data={chart} stepMs={d.window.stepMs} height={CHART_HEIGHT} onSelect={(outcome) => update({ outcome })} />}
        </ChartFrame>
      </section>
      <div className="grid-2">
        <section className="panel" aria-labelledby="codes-title">
          <h2 id="codes-title">Top failing codes</h2>
          <table className="data" data-testid="top-codes">
            <thead>
              <tr>
                <th className="text">code</th>
                <th>failed attempts</th>
                <th className="declined-text">declined</th>
                <th className="refused-text">refused</th>
                <th>tools</th>
              </tr>
            </thead>
            <tbody>
              {d?.topCodes.map((c) => (
                <tr key={c.code}>
                  <td className="name">
                    <Link href={hrefWith(`/codes/${encodeURIComponent(c.code)}`, { sort: undefined, dir: undefined })}>{c.code}</Link>
                    <span className="cell-marks"><DriftBadge code={c.code} project={project} /></span>
                  </td>
                  <td>
                    <button type="button" className="chip" onClick={() => update({ code: c.code })} title="Narrow to this code">
                      {formatCount(c.failures)}
                    </button>
                  </td>
                  <td>{formatCount(c.declined)}</td>
                  <td>{formatCount(c.refused)}</td>
                  <td>{c.tools}</td>
                </tr>
              ))}
              {d && d.topCodes.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty-state">No failing codes in this range.</td>
                </tr>
              )}
            </tbody>
          </table>
        </section>
        <section className="panel" aria-labelledby="tools-title">
          <h2 id="tools-title">Top failing tools</h2>
          <table className="data" data-testid="top-tools">
            <thead>
              <tr>
                <th className="text">tool</th>
                <th>attempts</th>
                <th>failed</th>
                <th>failure rate</th>
                <th className="declined-text">declined</th>
                <th className="refused-text">refused</th>
              </tr>
            </thead>
            <tbody>
              {d?.topTools.map((tool) => (
                <tr key={tool.tool}>
                  <td className="name">
                    <Link href={hrefWith(`/tools/${encodeURIComponent(tool.tool)}`, { sort: undefined, dir: undefined })}>{tool.tool}</Link>
                    <span className="cell-marks"><DriftBadge tool={tool.tool} project={project} /></span>
                  </td>
                  <td>{formatCount(tool.attempts)}</td>
                  <td>{formatCount(tool.failures)}</td>
                  <td>
                    {formatPct(tool.failureRate)}
                    <span className="bar-cell" style={{ width: Math.round((tool.failureRate ?? 0) * 40) }} aria-hidden="true" />
                  </td>
                  <td>{formatCount(tool.declined)}</td>
                  <td>{formatCount(tool.refused)}</td>
                </tr>
              ))}
              {d && d.topTools.length === 0 && (
                <tr>
                  <td colSpan={6} className="empty-state">No failing tools in this range.</td>
                </tr>
              )}
            </tbody>
          </table>
        </section>
      </div>
    </>
  );
}
