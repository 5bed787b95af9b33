"use client";

import { RUN_STATE_FILTERS } from "@/lib/contracts/runs";
import type { RunsFilters } from "@/lib/query/runs";
import styles from "./runs.module.css";

const TEXT_FILTERS = [
  ["agent", "Agent"],
  ["release", "Release"],
  ["tool", "Tool"],
  ["code", "Code"],
] as const;

const RANGES = [
  ["1h", 3_600_000],
  ["24h", 86_400_000],
  ["7d", 7 * 86_400_000],
  ["30d", 30 * 86_400_000],
] as const;

// datetime-local has no zone; the page speaks UTC everywhere, so the inputs do too.
const toInput = (ms: string | undefined) => (ms ? new Date(Number(ms)).toISOString().slice(0, 16) : "");
const fromInput = (value: string) => (value ? String(Date.parse(`${value}:00Z`)) : undefined);

/** Filters of the runs list. Text fields apply on Enter or when they lose focus; the rest at once. */
export function RunsFiltersForm({ filters, onChange }: { filters: RunsFilters; onChange: (next: RunsFilters) => void }) {
  const set = (key: keyof RunsFilters, value: string | undefined) => {
    if ((filters[key] ?? "") === (value ?? "")) return;
    onChange({ ...filters, [key]: value });
  };
  return (
    <form
      key={JSON.stringify(filters)}
      className={`${styles.panel} ${styles.filters}`}
      aria-label="Run filters"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const next: RunsFilters = { ...filters };
        for (const [key] of TEXT_FILTERS) next[key] = String(data.get(key) ?? "").trim() || undefined;
        onChange(next);
      }}
    >
      {TEXT_FILTERS.map(([key, label]) => (
        <label key={key}>
          {label}
          <input name={key} defaultValue={filters[key] ?? ""} placeholder="any" onBlur={(e) => set(key, e.currentTarget.value.trim() || undefined)} />
        </label>
      ))}
      <label>
        Final state
        <select name="state" value={filters.state ?? ""} onChange={(e) => set("state", e.currentTarget.value || undefined)}>
          <option value="">any</option>
          {RUN_STATE_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s === "missing" ? "run record missing" : s}
            </option>
          ))}
        </select>
      </label>
      <label>
        From (UTC)
        <input type="datetime-local" name="from" defaultValue={toInput(filters.from)} onChange={(e) => set("from", fromInput(e.currentTarget.value))} />
      </label>
      <label>
        To (UTC)
        <input type="datetime-local" name="to" defaultValue={toInput(filters.to)} onChange={(e) => set("to", fromInput(e.currentTarget.value))} />
      </label>
      <div className={styles.quick} role="group" aria-label="Time range">
        {RANGES.map(([label, ms]) => (
          <button key={label} type="button" className={styles.btn} onClick={() => onChange({ ...filters, from: String(Date.now() - ms), to: undefined })}>
            last {label}
          </button>
        ))}
        <button type="button" className={styles.btn} aria-pressed={!filters.from && !filters.to} onClick={() => onChange({ ...filters, from: undefined, to: undefined })}>
          any time
        </button>
      </div>
      <label className={styles.check}>
        <input type="checkbox" name="has_errors" checked={filters.has_errors === "1"} onChange={(e) => set("has_errors", e.currentTarget.checked ? "1" : undefined)} />
        has tool errors
      </label>
      <button type="submit" className={styles.btn}>
        Apply
      </button>
    </form>
  );
}
