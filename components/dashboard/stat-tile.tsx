import type { ReactNode } from "react";

export function StatTile({ label, value, hint, testId }: { label: ReactNode; value: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="tile" data-testid={testId}>
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {hint !== undefined && <div className="hint">{hint}</div>}
    </div>
  );
}
