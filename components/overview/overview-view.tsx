"use client";

import { ChartFrame } from "@/components/charts/chart-states";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { OutcomeChart } from "@/components/dashboard/lazy-charts";
import { QueryError } from "@/components/dashboard/query-error";
import { CompareToggle, countDelta, PeriodDelta, rateDelta } from "@/components/dashboard/period-delta";
import { StatTile } from "@/components/dashboard/stat-tile";
import { TimeOverlay } from "@/components/dashboard/time-overlay";
import { useNow } from "@/components/dashboard/use-now";
import { formatCount, formatMs, formatPct } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import type { OverviewTotals } from "@/lib/contracts/overview";
import { overviewQuery } from "@/lib/query/keys";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { useUrlState } from "@/lib/query/use-url-state";
import { FirstRunGuide } from "./first-run-guide";
import { TopCodesTable } from "./top-codes-table";
import { TopToolsTable } from "./top-tools-table";

const CHART_HEIGHT = 240;

export function OverviewView() {
  const { search, update, hrefWith } = useUrlState();
  const q = useKeptQuery(overviewQuery(search));
  const now = useNow(q.data?.window.to ?? 0);
  const project = search.project ?? "default";
  if (q.data && !q.data.hasData) return <FirstRunGuide project={project} />;
  const d = q.data;
  const t = d?.totals;
  const prev = d?.previous ?? null;
  const comparing = search.compare === "previous";
  const chart = d ? prepareOutcomeSeries(d.series, d.window, now) : null;
  const val = (f: (x: OverviewTotals) => string) => (t ? f(t) : "…");
  const vs = (f: (x: OverviewTotals, p: OverviewTotals) => string) => (comparing && t && prev ? <PeriodDelta>{f(t, prev)}</PeriodDelta> : null);
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <span className="sub">Which tools fail, with which codes, how failures end and how retries behave.</span>
        <CompareToggle checked={comparing} onChange={(on) => update({ compare: on ? "previous" : undefined })} />
      </div>
      <FilterBar />
      {t && t.calls === 0 && search.range === undefined && search.from === undefined && (
        <p className="note" data-testid="range-hint" role="status">
          No calls in the last 24 hours (the default range); this project has older ones.{" "}
          <button type="button" className="btn" onClick={() => update({ range: "7d" })}>
            Show the last 7 days
          </button>{" "}
          <button type="button" className="btn" onClick={() => update({ range: "30d" })}>
            Show the last 30 days
          </button>
        </p>
      )}
      {q.error && <QueryError error={q.error} stale={q.stale} onRetry={() => void q.refetch()} />}
      <div className="tiles" aria-busy={q.isFetching}>
        <StatTile
          testId="tile-calls"
          label="Calls"
          value={val((x) => formatCount(x.calls))}
          hint={
            <>
              {val((x) => `${formatCount(x.attempts)} attempts${x.unnumbered > 0 ? ` · ${formatCount(x.unnumbered)} without an attempt number, each counted as a call` : ""}`)}
              {vs((x, p) => countDelta(x.calls, p.calls))}
            </>
          }
        />
        <StatTile
          testId="tile-failure-rate"
          label="Failure rate"
          value={val((x) => formatPct(x.failureRate))}
          hint={
            <>
              {val((x) => `${formatCount(x.failures)} attempts not ok`)}
              {vs((x, p) => rateDelta(x.failureRate, p.failureRate))}
            </>
          }
        />
        <StatTile testId="tile-declined" label={<><OutcomeSwatch outcome="declined" /> Declined</>} value={val((x) => formatCount(x.declined))} hint={<>the tool said no{vs((x, p) => countDelta(x.declined, p.declined))}</>} />
        <StatTile testId="tile-refused" label={<><OutcomeSwatch outcome="refused" /> Refused</>} value={val((x) => formatCount(x.refused))} hint={<>permission said no{vs((x, p) => countDelta(x.refused, p.refused))}</>} />
        <StatTile
          testId="tile-retries"
          label="Retries spent"
          value={val((x) => formatCount(x.retries))}
          hint={
            <>
              {val((x) => `${formatCount(x.retriedCalls)} calls retried · ${formatMs(x.backoffWaitedMs)} waited`)}
              {vs((x, p) => countDelta(x.retries, p.retries))}
            </>
          }
        />
        <StatTile testId="tile-failed-closed" label="Failed closed on retry_after" value={val((x) => formatCount(x.failedClosed))} hint={<>wait asked was beyond cap or deadline{vs((x, p) => countDelta(x.failedClosed, p.failedClosed))}</>} />
      </div>
      <section className="panel" aria-labelledby="mix-title">
        <div className="panel-head">
          <h2 id="mix-title">Outcome mix over time</h2>
          <span className="note">attempts per {d ? formatMs(d.window.stepMs) : "bucket"} · click a bar to narrow · drag to zoom</span>
        </div>
        <ChartFrame
          label="Outcome mix over time"
          height={CHART_HEIGHT}
          state={q.isPending ? "loading" : q.error && !d ? "error" : chart && chart.series.length === 0 ? "empty" : "ready"}
          message={q.error && !d ? q.error.message : "No attempts in this range (zero everywhere)."}
        >
          {chart && d && (
            <TimeOverlay
              window={d.window}
              markers={d.releases.map((r) => ({ t: r.firstSeen, label: r.release }))}
              onZoom={(from, to) => update({ from: String(from), to: String(to), range: undefined })}
            >
              <OutcomeChart data={chart} stepMs={d.window.stepMs} height={CHART_HEIGHT} onSelect={(outcome) => update({ outcome })} />
            </TimeOverlay>
          )}
        </ChartFrame>
      </section>
      <div className="grid-2">
        <section className="panel" aria-labelledby="codes-title">
          <h2 id="codes-title">Top failing codes</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="codes-title">
            <TopCodesTable rows={d?.topCodes} project={project} hrefWith={hrefWith} update={update} />
          </div>
        </section>
        <section className="panel" aria-labelledby="tools-title">
          <h2 id="tools-title">Top failing tools</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="tools-title">
            <TopToolsTable rows={d?.topTools} project={project} hrefWith={hrefWith} />
          </div>
        </section>
      </div>
    </>
  );
}
