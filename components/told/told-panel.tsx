"use client";

import { useQuery } from "@tanstack/react-query";
import { QueryError } from "@/components/dashboard/query-error";
import { StatTile } from "@/components/dashboard/stat-tile";
import { TableScroll } from "@/components/data-table";
import Link from "next/link";
import { newExperimentHref } from "@/lib/charts/experiment-rows";
import { formatCount } from "@/lib/charts/format";
import { repeatText, selfCorrectionText, toldShares } from "@/lib/charts/told-shares";
import { toldOptions } from "@/lib/query/told";
import { ToldRatesTable } from "./told-rates-table";
import { ToldSharesBar } from "./told-shares-bar";
import { ToldWordingsTable } from "./told-wordings-table";
import styles from "./told.module.css";

/** How each next step is decided, in short (docs/after-told.md has the full rules). */
function Definitions() {
  return (
    <details className={styles.definitions}>
      <summary>How the next step is decided</summary>
      <dl>
        <dt>recovered</dt>
        <dd>a later call of the same tool in the run ended ok</dd>
        <dt>replaced by another tool</dt>
        <dd>a call of another tool ended ok: one the runtime linked to this error, or else the very next call of the run</dd>
        <dt>repeated the same call</dt>
        <dd>the tool was called again with the same arguments (same hash) and got the same code</dd>
        <dt>changed the call, failed again</dt>
        <dd>the tool was called again, not as a repeat, and failed</dd>
        <dt>repeat unknown</dt>
        <dd>the tool was called again and failed, but no arguments hash says whether it was a repeat</dd>
        <dt>gave up / run failed</dt>
        <dd>no later call of the tool, and the run completed / failed or was cancelled</dd>
        <dt>pending</dt>
        <dd>nothing decided yet: the run has not ended; not counted in the rates</dd>
      </dl>
    </details>
  );
}

/**
 * "After the model was told": what agents did after an error was surfaced to the model, for one code
 * (code page) or one tool (tool page) — the shares of next steps, the rates, the wordings of the
 * told text ranked by recovery with example runs, and the rates per release and per tool or code.
 * Errors told in the page's time range, like every other number on the page.
 */
export function ToldPanel({ project, code, tool, range, from, to }: { project: string | undefined; code?: string; tool?: string; range?: string; from?: string; to?: string }) {
  const q = useQuery(toldOptions({ project, code, tool, range, from, to }));
  const d = q.data;
  const by = code === undefined ? "code" : "tool";
  const self = d ? selfCorrectionText(d.rates, d.minSample) : null;
  const repeat = d ? repeatText(d.rates) : null;
  const pending = d ? (d.steps.find((s) => s.step === "pending")?.errors ?? 0) : 0;
  return (
    <section className={`panel ${styles.panel}`} aria-labelledby="told-title" data-testid="told-panel">
      <div className="panel-head">
        <h2 id="told-title">After the model was told</h2>
        <span className="note">what the agent did next after each error surfaced to the model · errors told in this time range</span>
      </div>
      <Definitions />
      {q.error ? <QueryError error={q.error} stale={false} /> : null}
      {!d ? (
        q.error ? null : <p className="note">Loading…</p>
      ) : d.rates.surfaced === 0 ? (
        <ToldSharesBar shares={toldShares(d.steps)} testId="told-shares" />
      ) : (
        <>
          <div className="tiles">
            <StatTile
              testId="told-self-correction"
              label="Self-correction"
              value={self!.text}
              hint={self!.reason ?? `recovered after ${formatCount(d.rates.recovered)} of ${formatCount(d.rates.decided)} decided errors`}
            />
            <StatTile testId="told-repeat" label="Repeated the same call" value={repeat!.text} hint={repeat!.reason ?? `${formatCount(d.rates.repeated)} of ${formatCount(d.rates.repeatJudged)} judged`} />
            <StatTile
              testId="told-median"
              label="Calls until recovery"
              value={d.rates.medianCallsUntilRecovery === null ? "—" : String(d.rates.medianCallsUntilRecovery)}
              hint={d.rates.medianCallsUntilRecovery === null ? "no recovery yet" : "median, the recovering call included"}
            />
            <StatTile testId="told-surfaced" label="Surfaced to the model" value={formatCount(d.rates.surfaced)} hint={`${formatCount(pending)} pending (run still open)`} />
          </div>
          <ToldSharesBar shares={toldShares(d.steps)} testId="told-shares" />
          <h3 className={styles.sub}>
            Wordings, best recovered from first{d.wordingCount > d.wordings.length ? ` (top ${d.wordings.length} of ${d.wordingCount})` : ""}
          </h3>
          <TableScroll label="Wordings of the told text">
            <ToldWordingsTable rows={d.wordings} minSample={d.minSample} showCodes={code === undefined} project={project} />
          </TableScroll>
          {code !== undefined && d.wordings.length > 0 ? (
            <p className="note">
              <Link href={newExperimentHref(project, code, tool, d.wordings.map((w) => w.shape))} data-testid="new-experiment">
                A/B-test these wordings
              </Link>{" "}
              (docs/experiments.md): each run is told one of them at random, and the verdict says which makes the model correct itself more.
            </p>
          ) : null}
          <div className="grid-2">
            <div>
              <h3 className={styles.sub}>By release ({d.releaseOrder === "semver" ? "SemVer order" : "order of first sighting"})</h3>
              <TableScroll label="After the model was told, by release">
                <ToldRatesTable
                  header="release"
                  testId="told-releases"
                  minSample={d.minSample}
                  rows={d.releases.map((r) => ({ key: r.release, label: r.release === "" ? "(no release)" : r.release, steps: r.steps, rates: r.rates }))}
                />
              </TableScroll>
            </div>
            <div>
              <h3 className={styles.sub}>By {by}</h3>
              <TableScroll label={`After the model was told, by ${by}`}>
                <ToldRatesTable
                  header={by}
                  testId="told-groups"
                  minSample={d.minSample}
                  rows={d.groups.map((g) => ({ key: `${g.code}\u0000${g.tool}`, label: by === "tool" ? g.tool : g.code || "(no code)", steps: g.steps, rates: g.rates }))}
                />
              </TableScroll>
            </div>
          </div>
        </>
      )}
    </section>
  );
}
