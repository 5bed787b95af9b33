"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { groupFindings } from "@/lib/charts/drift-groups";
import { driftFindingsOptions, normalizeDriftFilters } from "@/lib/query/drift";
import { DriftFilterBar } from "./drift-filters";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import { FindingCard } from "./finding-card";
import { describeFindings, FindingsPager } from "./findings-pager";
import styles from "./drift.module.css";

export function DriftView() {
  const params = useSearchParams();
  const filters = normalizeDriftFilters(Object.fromEntries(params.entries()));
  const { data, error, isPending } = useQuery(driftFindingsOptions(filters));
  const { zone } = useTimeZone();
  const filtered = Boolean(filters.kind || filters.severity || filters.tool || filters.code);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1>Drift</h1>
        <p>Codes whose meaning changed between consecutive releases of the tool that emits them, most severe first.</p>
      </header>
      {/* Keyed by the URL so the text inputs reset when the filters change from outside (back button). */}
      <DriftFilterBar key={params.toString()} filters={filters} totals={data?.totals} />
      {data && !data.upToDate ? (
        <p className={styles.muted} role="status">
          Recently ingested data is still being folded in; these findings update when it is done.
        </p>
      ) : null}
      {error ? (
        <p className={styles.state} role="alert">
          Could not load drift findings: {error.message}
        </p>
      ) : isPending ? (
        <p className={styles.state}>Loading findings…</p>
      ) : data.findings.length === 0 ? (
        <p className={styles.state}>
          {filtered ? "No finding matches these filters." : "No drift found: every code means what it meant in the release before."}
        </p>
      ) : (
        <>
          <p className={styles.muted} data-testid="findings-count">
            {describeFindings(data.page, data.totals.all, groupFindings(data.findings).length)}
            {data.computedAt !== null ? ` · computed ${formatTime(data.computedAt, zone)}` : ""}
          </p>
          <ol className={styles.list} aria-label="Findings">
            {groupFindings(data.findings).map((g) => (
              <FindingCard key={g.key} group={g} project={filters.project} />
            ))}
          </ol>
          {data.page.total > data.page.limit ? <FindingsPager page={data.page} filters={filters} /> : null}
        </>
      )}
    </div>
  );
}
