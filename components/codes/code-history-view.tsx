"use client";

import Link from "next/link";
import { ChartFrame } from "@/components/charts/chart-states";
import { OutcomeChart } from "@/components/dashboard/lazy-charts";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { QueryError } from "@/components/dashboard/query-error";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { StatTile } from "@/components/dashboard/stat-tile";
import { DriftBadge } from "@/components/drift/drift-badge";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { useNow } from "@/components/dashboard/use-now";
import { formatCount, formatCountOf, formatPct, sumValues } from "@/lib/charts/format";
import { formatTime } from "@/lib/charts/time-format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import { codeDetailQuery } from "@/lib/query/code-queries";
import { toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";
import { CodeReleaseSection } from "./code-release-section";
import { CodeMeaningsTable } from "./code-meanings-table";
import { CodeToolsTable } from "./code-tools-table";
import { TwoMeanings } from "./two-meanings";
import { TableScroll } from "@/components/data-table";
import { IssuesPanel } from "@/components/issues/issue-links";
import { ToldPanel } from "@/components/told/told-panel";

const H = 220;

/** "52 failed · 12 timed out": which outcomes make up the not-ok count, in the outcomes' own words. */
function notOkBreakdown(outcomes: readonly { outcome: string; attempts: number }[]): string {
  const parts = outcomes.filter((o) => o.outcome !== "ok" && o.outcome !== "" && o.attempts > 0).sort((a, b) => b.attempts - a.attempts);
  return parts.length === 0 ? "every attempt was ok" : parts.map((o) => `${formatCount(o.attempts)} ${outcomeStyle(o.outcome).label}`).join(" · ");
}

export function CodeHistoryView({ code }: { code: string }) {
  const { search, update, hrefWith } = useUrlState();
  const { zone } = useTimeZone();
  const q = useKeptQuery(codeDetailQuery(code, search));
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
        <Link href={`/issues${toQueryString({ project: search.project, code })}`}>issues for this code →</Link>
      </div>
      <FilterBar show={["outcome", "release", "service", "environment"]} />
      {q.error && <QueryError error={q.error} stale={q.stale} />}
      <div className="tiles">
        <StatTile label="Error class" value={<span style={{ fontSize: 14 }}>{s ? s.errorClasses.join(", ") || "—" : "…"}</span>} />
        <StatTile label="Retryable" value={s ? formatPct(s.retryableShare, 0) : "…"} hint={s ? `claimed: ${s.retryableValues.join(", ")}` : undefined} />
        <StatTile
          testId="tile-not-ok"
          label="Attempts not ok"
          value={s ? formatCount(s.failures) : d ? "0" : "…"}
          hint={s ? notOkBreakdown(s.outcomes) : undefined}
        />
        <StatTile testId="tile-seen" label="First / last seen" value={<span style={{ fontSize: 13 }}>{s ? `${formatTime(s.firstSeen, zone)} → ${formatTime(s.lastSeen, zone)}` : "…"}</span>} />
      </div>
      <section className="panel">
        <h2>
          Attempts by outcome{chart ? <span className="count"> · {formatCountOf(sumValues(chart.totals), "attempt")}</span> : null}
        </h2>
        <ChartFrame label="Outcomes of this code over time" height={H} state={q.isPending ? "loading" : q.error ? "error" : !chart || chart.series.length === 0 ? "empty" : "ready"} message={q.error?.message ?? "No attempts with this code in this range."}>
          {chart && d && <OutcomeChart data={chart} stepMs={d.window.stepMs} height={H} onSelect={(outcome) => update({ outcome })} />}
        </ChartFrame>
      </section>
      <CodeReleaseSection code={code} project={search.project} />
      <IssuesPanel project={search.project ?? "default"} code={code} />
      <ToldPanel project={search.project} code={code} range={search.range} from={search.from} to={search.to} />
      <div className="grid-2">
        <section className="panel">
          <h2>Tools that emit it</h2>
          <CodeToolsTable code={code} rows={d?.byTool} project={search.project} hrefWith={hrefWith} />
        </section>
        <section className="panel">
          <h2>Meanings by release (all time)</h2>
          <TableScroll label="Meanings by release">
            <CodeMeaningsTable rows={d?.meanings} />
          </TableScroll>
        </section>
      </div>
    </>
  );
}
