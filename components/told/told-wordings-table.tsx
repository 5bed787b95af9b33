import { DataTable, countColumn, type Column } from "@/components/data-table";
import { repeatText, selfCorrectionText, toldShares } from "@/lib/charts/told-shares";
import type { ToldWording } from "@/lib/contracts/told";
import { ToldSamples } from "./told-samples";
import { ToldSharesBar } from "./told-shares-bar";
import styles from "./told.module.css";

/**
 * The wordings of what the model was told (told texts with values masked), best recovered from
 * first, with example runs: told text → next call. Wordings with too few decided errors to rank
 * come last and say so.
 */
export function ToldWordingsTable({ rows, minSample, showCodes, project }: { rows: readonly ToldWording[]; minSample: number; showCodes: boolean; project: string | undefined }) {
  const columns: Column<ToldWording & { rank: number }>[] = [
    { id: "rank", header: "#", align: "num", cellClassName: styles.rank, cell: (w) => w.rank },
    {
      id: "shape",
      header: "wording (values masked)",
      align: "text",
      rowHeader: true,
      cell: (w) => (
        <>
          <span className={styles.shape}>{w.shape === "" ? "(empty)" : w.shape}</span>
          {showCodes ? <div className={styles.next}>{w.codes.join(", ")}</div> : null}
        </>
      ),
    },
    countColumn("decided", "decided", (w) => w.rates.decided, { title: "surfaced errors whose next step is known (not pending)" }),
    {
      id: "selfCorrection",
      header: "recovered",
      title: "share of decided errors after which the model recovered (same tool or a replacement)",
      align: "num",
      cell: (w) => {
        const t = selfCorrectionText(w.rates, minSample);
        return (
          <span title={t.reason ?? undefined} data-testid="wording-rate">
            {t.text}
            {t.lowSample ? <span className={styles.low}>(n={w.rates.decided})</span> : null}
          </span>
        );
      },
    },
    {
      id: "repeat",
      header: "repeated",
      title: "share of decided errors after which the model sent the same call again (the message was not read)",
      align: "num",
      cell: (w) => {
        const t = repeatText(w.rates);
        return <span title={t.reason ?? undefined}>{t.text}</span>;
      },
    },
    { id: "shares", header: "next steps", align: "text", cell: (w) => <ToldSharesBar shares={toldShares(w.steps)} small /> },
    { id: "samples", header: "example runs: told → next call", align: "text", cell: (w) => <ToldSamples samples={w.samples} project={project} /> },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows.map((w, i) => ({ ...w, rank: i + 1 }))}
      rowKey={(w) => w.shape}
      rowAttributes={(w) => ({ "data-shape": w.shape, "data-rank": String(w.rank) })}
      testId="told-wordings"
      empty="No wording yet."
    />
  );
}
