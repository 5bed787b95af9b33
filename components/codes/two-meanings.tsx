import type { CodeRow } from "@/lib/contracts/codes";

/** Marks a code seen with more than one class or retryability: it means two things. */
export function TwoMeanings({ row }: { row: Pick<CodeRow, "conflicting" | "errorClasses" | "retryableValues"> }) {
  if (!row.conflicting) return null;
  return (
    <span className="chip warn-chip" title={`classes: ${row.errorClasses.join(", ")} · retryable: ${row.retryableValues.join(", ")}`} data-testid="two-meanings">
      ⚠ two meanings
    </span>
  );
}
