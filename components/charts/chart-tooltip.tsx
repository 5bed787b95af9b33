import type { ReactNode } from "react";

export interface TooltipRow {
  key: string;
  label: ReactNode;
  value: string;
}

/** The one tooltip look of every chart: a title and label/value rows with units. */
export function ChartTooltipBody({ title, rows }: { title: string; rows: TooltipRow[] }) {
  return (
    <div className="tooltip">
      <div style={{ fontWeight: 600, marginBottom: 4 }}>{title}</div>
      {rows.map((r) => (
        <div className="row" key={r.key}>
          <span>{r.label}</span>
          <span>{r.value}</span>
        </div>
      ))}
    </div>
  );
}
