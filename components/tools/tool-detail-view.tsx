"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { AttemptsChart } from "@/components/charts/attempts-chart";
import { ChartFrame } from "@/components/charts/chart-states";
import { CodeStackChart } from "@/components/charts/code-stack-chart";
import { DelayHistogramChart } from "@/components/charts/delay-histogram-chart";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { OutcomeChart } from "@/components/charts/outcome-chart";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { DriftBadge } from "@/components/drift/drift-badge";
import { QueryError } from "@/components/dashboard/query-error";
import { StatTile } from "@/components/dashboard/stat-tile";
import { useNow } from "@/components/overview/overview-view";
import { prepareAttemptsBars } from "@/lib/charts/attempts";
import { prepareCodeStack } from "@/lib/charts/code-series";
import { prepareDelayHistogram } from "@/lib/charts/delay-histogram";
import { formatCount, formatMs, formatPct, formatRatio, formatTime } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { toolDetailQuery } from "@/lib/query/keys";
import { toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";

const H = 220;
const TOP_CODES = 6;

export function ToolDetailView({ tool }: { tool: string }) {
  const { search, update, hrefWith } = useUrlState();
  const q = useQuery(toolDetailQuery(tool, search));
  const d = q.data;
  const now = useNow(d?.window.to ?? 0);
  const state = (empty: boolean) => (q.isPending ? "loading" : q.error ? "error" : empty ? "empty" : "ready");
  const outcomes = d ? prepareOutcomeSeries(d.outcomeSeries, d.window, now) : null;
  const codes = d ? prepareCodeStack(d.codeSeries, d.window, TOP_CODES, now) : null;
  const delays = d ? prepareDelayHistogram(d.delayHistogram) : [];
  const attempts = d ? prepareAttemptsBars(d.attemptsPerCall.histogram) : [];
  const s = d?.summary;
  const runsHref = (extra: Record<string, string>) => `/runs${toQueryString({ project: search.project, range: search.range, from: search.from, to: search.to, tool, ...extra })}`;
  return (
    <>
      <div className="crumbs">
        <Link href={hrefWith("/tools")}>Tools</Link> /
      </div>
      <div className="page-head">
        <h1 className="mono" data-testid="tool-name">{tool}</h1>
        <DriftBadge tool={tool} project={search.project} />
        <Link href={runsHref({})}>runs with this tool →</Link>
      </div>
      <FilterBar />
      {q.error && <QueryError error={q.error} />}
      <div className="tiles">
        <StatTile testId="tile-calls" label="Calls" value={s ? formatCount(s.calls) : "…"} hint={s ? `${formatCount(s.attempts)} attempts` : undefined} />
        <StatTile testId="tile-failure-rate" label="Failure rate" value={s ? formatPct(s.failureRate) : "…"} hint={s ? `${formatCount(s.failures)} attempts not ok` : undefined} />
        <StatTile testId="tile-declined" label={<><OutcomeSwatch outcome="declined" /> Declined</>} value={s ? formatCount(s.declined) : "…"} hint="the tool said no" />
        <StatTile testId="tile-refused" label={<><OutcomeSwatch outcome="refused" /> Refused</>} value={s ? formatCount(s.refused) : "…"} hint="permission said no" />
        <StatTile testId="tile-attempts" label="Attempts per call" value={s ? formatRatio(s.meanAttempts) : "…"} hint={s ? `max ${s.maxAttempts} · ${formatPct(s.retryShare)} needed a retry` : undefined} />
        <StatTile testId="tile-delays" label="retry_after asked / backoff waited (p50)" value={s ? `${formatMs(s.retryAfter.p50)} / ${formatMs(s.backoff.p50)}` : "…"} hint={s ? `p90 ${formatMs(s.retryAfter.p90)} / ${formatMs(s.backoff.p90)} · ${formatCount(s.failedClosed)} failed closed` : undefined} />
      </div>
      <div className="grid-2">
        <section className="panel">
          <h2>Failures by code</h2>
          <ChartFrame label="Failures by code over time" height={H} state={state(!codes || codes.series.length === 0)} message={q.error?.message ?? "No failed attempts in this range."}>
            {codes && d && <CodeStackChart data={codes} stepMs={d.window.stepMs} height={H} onSelect={(code) => update({ code })} />}
          </ChartFrame>
        </section>
        <section className="panel">
          <h2>Outcome mix</h2>
          <ChartFrame label="Outcome mix over time" height={H} state={state(!outcomes || outcomes.series.length === 0)} message={q.error?.message ?? "No attempts in this range."}>
            {outcomes && d && <OutcomeChart data={outcomes} stepMs={d.window.stepMs} height={H} onSelect={(outcome) => update({ outcome })} />}
          </ChartFrame>
        </section>
        <section className="panel">
          <h2>retry_after asked vs backoff waited</h2>
          <ChartFrame label="retry_after asked versus backoff waited" height={H} state={state(delays.length === 0)} message={q.error?.message ?? "No retry_after or backoff recorded in this range."}>
            <DelayHistogramChart bars={delays} height={H} />
          </ChartFrame>
          {d && d.delaysByCode.length > 0 && (
            <div className="table-wrap">
            <table className="data" data-testid="delays-by-code" style={{ marginTop: 8 }}>
              <thead>
                <tr>
                  <th className="text">code</th>
                  <th>mean retry_after asked</th>
                  <th>mean backoff waited</th>
                  <th>failed closed</th>
                </tr>
              </thead>
              <tbody>
                {d.delaysByCode.map((c) => (
                  <tr key={c.code}>
                    <td className="name">
                      {c.code}
                      <span className="cell-marks"><DriftBadge code={c.code} tool={tool} project={search.project} /></span>
                    </td>
                    <td>{formatMs(c.retryAfterMeanMs)} <span className="num-muted">({c.retryAfterCount})</span></td>
                    <td>{formatMs(c.backoffMeanMs)} <span className="num-muted">({c.backoffCount})</span></td>
                    <td>{formatCount(c.failedClosed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
          )}
        </section>
        <section className="panel">
          <h2>Attempts per call</h2>
          <ChartFrame label="Attempts per call" height={120} state={state(attempts.length === 0)} message={q.error?.message ?? "No calls in this range."}>
            <AttemptsChart bars={attempts} height={120} />
          </ChartFrame>
          {d?.attemptsPerCall.meanAttemptsWhenRetried != null && (
            <p className="note">Retried calls took {formatRatio(d.attemptsPerCall.meanAttemptsWhenRetried)} attempts on average (max {d.attemptsPerCall.maxAttempts}).</p>
          )}
          <h2 style={{ marginTop: 14 }}>Releases</h2>
          <div className="table-wrap">
          <table className="data" data-testid="releases">
            <thead>
              <tr>
                <th className="text">release</th>
                <th>attempts</th>
                <th>failed</th>
                <th>first seen (hour)</th>
                <th>last seen (hour)</th>
              </tr>
            </thead>
            <tbody>
              {d?.releases.map((r) => (
                <tr key={r.release}>
                  <td className="name">
                    <button type="button" className="chip" onClick={() => update({ release: r.release || undefined })}>{r.release || "(unknown)"}</button>
                  </td>
                  <td>{formatCount(r.attempts)}</td>
                  <td>{formatCount(r.failures)}</td>
                  <td>{formatTime(r.firstSeen)}</td>
                  <td>{formatTime(r.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </section>
      </div>
      <section className="panel">
        <h2>Most recent failing runs</h2>
        <div className="table-wrap">
        <table className="data" data-testid="recent-runs">
          <thead>
            <tr>
              <th className="text">run</th>
              <th className="text">last failure</th>
              <th>failed attempts</th>
              <th>highest attempt</th>
              <th className="text">outcomes</th>
              <th className="text">codes</th>
            </tr>
          </thead>
          <tbody>
            {d?.recentFailingRuns.map((r) => (
              <tr key={r.runId}>
                <td className="name">
                  <Link href={`/runs/${encodeURIComponent(r.runId)}`}>{r.runId}</Link>
                </td>
                <td className="text">{formatTime(r.lastAt)}</td>
                <td>{r.failedAttempts}</td>
                <td>{r.maxAttempt ?? "—"}</td>
                <td className="text">
                  {r.outcomes.map((o) => (
                    <span key={o} className="chips" style={{ display: "inline-flex", marginRight: 6 }}>
                      <OutcomeSwatch outcome={o} /> {outcomeStyle(o).label}
                    </span>
                  ))}
                </td>
                <td className="text mono">{r.codes.join(", ")}</td>
              </tr>
            ))}
            {d && d.recentFailingRuns.length === 0 && (
              <tr>
                <td colSpan={6} className="empty-state">No failing runs of this tool in this range.</td>
              </tr>
            )}
          </tbody>
        </table>
        </div>
      </section>
    </>
  );
}
