"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChartFrame } from "@/components/charts/chart-states";
import { CodeReleaseChart } from "@/components/dashboard/lazy-charts";
import { changePointLabel } from "@/components/drift/labels";
import { CodeText } from "@/components/drift/code-text";
import { prepareCodeReleaseHistory } from "@/lib/charts/code-release-history";
import { codeFindingsFilters, codeHistoryOptions, driftFindingsOptions } from "@/lib/query/drift";
import { ReleaseTable } from "./release-table";

const H = 200;

const findingHref = (code: string, tool: string, project: string | undefined) =>
  `/drift?${new URLSearchParams([...(project ? [["project", project]] : []), ["code", code], ["tool", tool]]).toString()}`;

/**
 * "Meaning by release": all-time, per release of the emitting side, so it ignores the page's time
 * window on purpose — a change point is a property of the releases, not of the last 7 days.
 */
export function CodeReleaseSection({ code, project }: { code: string; project: string | undefined }) {
  const history = useQuery(codeHistoryOptions(code, null, project ?? "default"));
  const findings = useQuery(driftFindingsOptions(codeFindingsFilters(code, project)));
  const error = history.error ?? findings.error;
  const data = history.data && findings.data ? prepareCodeReleaseHistory(history.data, findings.data.findings) : null;
  const state = error ? "error" : !data ? "loading" : data.rows.length === 0 ? "empty" : "ready";
  const message = error?.message ?? "No sightings of this code in any release yet.";
  const orderNote = data?.order === "semver" ? "releases in SemVer order" : "releases in order of first sighting (not all labels are versions)";
  return (
    <section className="panel" aria-labelledby="release-title" data-testid="code-release-section">
      <div className="panel-head">
        <h2 id="release-title">Meaning by release</h2>
        <span className="note">all time · {orderNote} · bars count attempts (final errors where no attempt was recorded)</span>
      </div>
      <div className="grid-2" style={{ marginBottom: 8 }}>
        <div>
          <h3 style={{ margin: "0 0 4px", fontSize: 13 }}>By error class, with the retryable share</h3>
          <ChartFrame label={`${code} by error class per release`} height={H} state={state} message={message}>
            {data && <CodeReleaseChart data={data} breakdown="class" height={H} />}
          </ChartFrame>
        </div>
        <div>
          <h3 style={{ margin: "0 0 4px", fontSize: 13 }}>By outcome</h3>
          <ChartFrame label={`${code} by outcome per release`} height={H} state={state} message={message}>
            {data && <CodeReleaseChart data={data} breakdown="outcome" height={H} />}
          </ChartFrame>
        </div>
      </div>
      {data && data.changePoints.length > 0 && (
        <ol className="note" style={{ listStyle: "none", padding: 0, display: "grid", gap: 4, fontSize: 13, color: "var(--text)" }} data-testid="change-points">
          {data.changePoints.flatMap((cp) =>
            cp.findings.map((f) => (
              <li key={f.id} data-release={cp.release}>
                <strong style={{ color: "var(--danger)" }}>{changePointLabel({ findings: [f] })}</strong>{" "}
                <span className="mono">
                  {f.tool} · {f.fromRelease} → {cp.release}
                </span>
                : <CodeText text={f.sentence} /> <Link href={findingHref(code, f.tool, project)}>details →</Link>
              </li>
            )),
          )}
        </ol>
      )}
      {data && data.rows.length > 0 && (
        <ReleaseTable data={data} />
      )}
      {history.data && history.data.ruleEdits.length > 0 && (
        <div data-testid="rule-edits">
          <h3 style={{ margin: "8px 0 4px", fontSize: 13 }}>Classification rule changes</h3>
          <p className="note">
            Rules that set this code changed, or a reorder or built-in pack switch moved calls to or from it: calls follow the rules as they are, so drift does not count such a change as the tool&apos;s.
          </p>
          <ol className="note" style={{ margin: 0, paddingLeft: 18 }}>
            {history.data.ruleEdits.map((e) => (
              <li key={`${e.action}-${e.ruleId ?? ""}-${e.version ?? ""}-${e.at}`}>{e.text}</li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
