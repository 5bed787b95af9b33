import { DataTable, countColumn, type Column } from "@/components/data-table";
import { repeatText, selfCorrectionText, toldShares } from "@/lib/charts/told-shares";
import type { ToldRates, ToldStepCounts } from "@/lib/contracts/told";
import { ToldSharesBar } from "./told-shares-bar";
import styles from "./told.module.css";

/** A row of rates: one release, or one (code, tool) pair. */
export interface ToldRatesRow {
  key: string;
  label: string;
  steps: ToldStepCounts;
  rates: ToldRates;
}

const medianText = (m: number | null) => (m === null ? "—" : Number.isInteger(m) ? String(m) : m.toFixed(1));

const finalStatesText = (r: ToldRates) =>
  r.finalStates
    .filter((s) => s.errors > 0)
    .map((s) => `${s.state} ${s.errors}`)
    .join(" · ") || "—";

/** Rates per row (per release, per tool or per code): shares, self-correction, repeats, calls until recovery, final states. */
export function ToldRatesTable({ rows, header, minSample, testId }: { rows: readonly ToldRatesRow[]; header: string; minSample: number; testId: string }) {
  const columns: Column<ToldRatesRow>[] = [
    { id: "label", header, align: "text", rowHeader: true, cellClassName: "mono", cell: (r) => r.label },
    countColumn("surfaced", "surfaced", (r) => r.rates.surfaced, { title: "errors surfaced to the model, pending ones included" }),
    {
      id: "selfCorrection",
      header: "recovered",
      align: "num",
      title: "share of decided errors after which the model recovered",
      cell: (r) => {
        const t = selfCorrectionText(r.rates, minSample);
        return (
          <span title={t.reason ?? undefined} data-testid="rate">
            {t.text}
            {t.lowSample ? <span className={styles.low}>(n={r.rates.decided})</span> : null}
          </span>
        );
      },
    },
    {
      id: "repeat",
      header: "repeated",
      align: "num",
      cell: (r) => {
        const t = repeatText(r.rates);
        return <span title={t.reason ?? undefined}>{t.text}</span>;
      },
    },
    { id: "median", header: "calls to recover", align: "num", title: "median number of the model's calls until the recovering one", cell: (r) => medianText(r.rates.medianCallsUntilRecovery) },
    { id: "final", header: "runs ended", align: "text", title: "how the runs of the decided errors ended", cell: (r) => finalStatesText(r.rates) },
    { id: "shares", header: "next steps", align: "text", cell: (r) => <ToldSharesBar shares={toldShares(r.steps)} small /> },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => r.key} rowAttributes={(r) => ({ "data-row": r.key })} testId={testId} empty="Nothing yet." />;
}
