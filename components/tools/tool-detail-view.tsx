"use client";

import Link from "next/link";
import { ChartFrame } from "@/components/charts/chart-states";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { AttemptsChart, CodeStackChart, DelayHistogramChart, OutcomeChart } from "@/components/dashboard/lazy-charts";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { DriftBadge } from "@/components/drift/drift-badge";
import { QueryError } from "@/components/dashboard/query-error";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { StatTile } from "@/components/dashboard/stat-tile";
import { CompareToggle, countDelta, PeriodDelta, rateDelta, ratioDelta } from "@/components/dashboard/period-delta";
import { useNow } from "@/components/dashboard/use-now";
import { prepareAttemptsBars } from "@/lib/charts/attempts";
import { prepareCodeStack } from "@/lib/charts/code-series";
import { prepareDelayHistogram } from "@/lib/charts/delay-histogram";
import { formatCount, formatCountOf, formatMs, formatPct, formatRatio, sumValues } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import type { ToolRow } from "@/lib/contracts/tools";
import { toolDetailQuery } from "@/lib/query/tool-detail-query";
import { toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";
import { DelaysByCodeTable } from "./delays-by-code-table";
import { RecentRunsTable } from "./recent-runs-table";
import { ToldPanel } from "@/components/told/told-panel";
import { ToolReleasesTable } from "./tool-releases-table";
import { IssuesPanel } from "@/components/issues/issue-links";
import { TableScroll } from "@/components/data-table";

const H = 220;
const TOP_CODES = 6;

export function ToolDetailView({ tool }: { tool: string }) {
  const { search, update, hrefWith } = useUrlState();
  const q = useKeptQuery(toolDetailQuery(tool, search));
  const d = q.data;
  const now = useNow(d?.window.to ?? 0);
  const state = (empty: boolean) => (q.isPending ? "loading" : q.error ? "error" : empty ? "empty" : "ready");
  const outcomes = d ? prepareOutcomeSeries(d.outcomeSeries, d.window, now) : null;
  const codes = d ? prepareCodeStack(d.codeSeries, d.window, TOP_CODES, now, d.codeSeriesRest) : null;
  const delays = d ? prepareDelayHistogram(d.delayHistogram) : [];
  const attempts = d ? prepareAttemptsBars(d.attemptsPerCall.histogram) : [];
  const s = d?.summary;
  const comparing = search.compare === "previous";
  const prev = d?.previous ?? null;
  // A tile's hint, then (when comparing) one line per figure saying what it was the period before.
  const hint = (text: string | undefined, ...deltas: ((x: ToolRow, p: ToolRow) => string)[]) =>
    text === undefined ? undefined : (
      <>
        {text}
        {comparing && s && prev && deltas.map((f, i) => <PeriodDelta key={i}>{f(s, prev)}</PeriodDelta>)}
      </>
    );
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
        <Link href={`/issues${toQueryString({ project: search.project, tool })}`}>issues of this tool →</Link>
        <CompareToggle checked={comparing} onChange={(on) => update({ compare: on ? "previous" : undefined })} />
      </div>
      <FilterBar />
      {q.error && <QueryError error={q.error} stale={q.stale} />}
      <div className="tiles">
        <StatTile testId="tile-calls" label="Calls" value={s ? formatCount(s.calls) : "…"} hint={hint(s && formatCountOf(s.attempts, "attempt"), (x, p) => countDelta(x.calls, p.calls))} />
        <StatTile
          testId="tile-calls-not-ok"
          label="Calls not ok"
          value={s ? formatPct(s.callNotOkRate) : "…"}
          hint={hint(s && `${formatCount(s.callsNotOk)} of ${formatCountOf(s.calls, "call")} ended not ok`, (x, p) => rateDelta(x.callNotOkRate, p.callNotOkRate))}
        />
        <StatTile
          testId="tile-failure-rate"
          label="Attempts not ok"
          value={s ? formatPct(s.failureRate) : "…"}
          hint={hint(s && `${formatCount(s.failures)} of ${formatCountOf(s.attempts, "attempt")}`, (x, p) => rateDelta(x.failureRate, p.failureRate))}
        />
        <StatTile testId="tile-declined" label={<><OutcomeSwatch outcome="declined" /> Declined</>} value={s ? formatCount(s.declined) : "…"} hint={hint("the tool said no", (x, p) => countDelta(x.declined, p.declined))} />
        <StatTile testId="tile-refused" label={<><OutcomeSwatch outcome="refused" /> Refused</>} value={s ? formatCount(s.refused) : "…"} hint={hint("permission said no", (x, p) => countDelta(x.refused, p.refused))} />
        <StatTile
          testId="tile-attempts"
          label="Attempts per call"
          value={s ? formatRatio(s.meanAttempts) : "…"}
          hint={hint(
            s && `max ${formatCount(s.maxAttempts)} · ${formatPct(s.retryShare)} needed a retry`,
            (x, p) => ratioDelta(x.meanAttempts, p.meanAttempts),
            (x, p) => `needed a retry: ${rateDelta(x.retryShare, p.retryShare)}`,
          )}
        />
        <StatTile
          testId="tile-delays"
          label="retry_after asked / backoff waited (p50)"
          value={s ? `${formatMs(s.retryAfter.p50)} / ${formatMs(s.backoff.p50)}` : "…"}
          hint={hint(
            s && `p90 ${formatMs(s.retryAfter.p90)} / ${formatMs(s.backoff.p90)} · ${formatCount(s.failedClosed)} failed closed`,
            // Percentiles are histogram bucket bounds: the previous values say more than a percent change of them.
            (_, p) => `previous period: ${formatMs(p.retryAfter.p50)} / ${formatMs(p.backoff.p50)} · ${formatCount(p.failedClosed)} failed closed`,
          )}
        />
      </div>
      <div className="grid-2">
        <section className="panel">
          <h2>
            Attempts not ok, by code{codes ? <span className="count"> · {formatCountOf(sumValues(codes.totals), "attempt")}</span> : null}
          </h2>
          <ChartFrame label="Attempts not ok by code over time" height={H} state={state(!codes || codes.series.length === 0)} message={q.error?.message ?? "No attempts not ok in this range."}>
            {codes && d && <CodeStackChart data={codes} stepMs={d.window.stepMs} height={H} onSelect={(code) => update({ code })} />}
          </ChartFrame>
        </section>
        <section className="panel">
          <h2>
            Attempts by outcome{outcomes ? <span className="count"> · {formatCountOf(sumValues(outcomes.totals), "attempt")}</span> : null}
          </h2>
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
            <TableScroll label="retry_after and backoff by code">
              <DelaysByCodeTable rows={d.delaysByCode} tool={tool} project={search.project} />
            </TableScroll>
          )}
        </section>
        <section className="panel">
          <h2>Attempts per call</h2>
          <ChartFrame label="Attempts per call" height={120} state={state(attempts.length === 0)} message={q.error?.message ?? "No calls in this range."}>
            <AttemptsChart bars={attempts} height={120} />
          </ChartFrame>
          {d?.attemptsPerCall.meanAttemptsWhenRetried != null && (
            <p className="note">Retried calls took {formatRatio(d.attemptsPerCall.meanAttemptsWhenRetried)} attempts on average (max {formatCount(d.attemptsPerCall.maxAttempts)}).</p>
          )}
          <h2 style={{ marginTop: 14 }}>Releases</h2>
          <TableScroll label="Releases">
            <ToolReleasesTable rows={d?.releases} update={update} />
          </TableScroll>
          {d && d.releaseCount > d.releases.length && (
            <p className="note">
              The {d.releases.length} releases seen last, of {formatCount(d.releaseCount)}: narrow with the release filter to see another.
            </p>
          )}
        </section>
      </div>
      <ToldPanel project={search.project} tool={tool} range={search.range} from={search.from} to={search.to} />
      <IssuesPanel project={search.project ?? "default"} tool={tool} />
      <section className="panel">
        <h2>Most recent failing runs</h2>
        <TableScroll label="Most recent failing runs">
          <RecentRunsTable rows={d?.recentFailingRuns} />
        </TableScroll>
      </section>
    </>
  );
}
