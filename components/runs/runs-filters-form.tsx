"use client";

import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { fromWallInput, toWallInput, zoneLabelOf, type TimeZone } from "@/lib/charts/time-zone";
import { RUN_STATE_FILTERS, type RunFacets } from "@/lib/contracts/runs";
import { runFacetsOptions, type RunsFilters } from "@/lib/query/runs";
import { CommitSelect } from "./commit-select";
import styles from "./runs.module.css";

// Tool and code match any name containing the text (the API's documented "contains" match).
const TEXT_FILTERS = [
  ["agent", "Agent", "agents", "exact"],
  ["release", "Release", "releases", "exact"],
  ["environment", "Environment", "environments", "exact"],
  ["tool", "Tool", "tools", "contains"],
  ["code", "Code", "codes", "contains"],
] as const satisfies readonly (readonly [keyof RunsFilters, string, keyof Omit<RunFacets, "truncated" | "unansweredRuns">, "exact" | "contains"])[];

/** One-click views: each sets a sort or a filter and keeps the rest. */
export const RUN_PRESETS = [
  { id: "newest", label: "Newest", patch: { sort: undefined, dir: undefined, state: undefined } },
  { id: "most-retried", label: "Most retried", patch: { sort: "retries", dir: "desc", state: undefined } },
  { id: "slowest", label: "Slowest", patch: { sort: "duration", dir: "desc", state: undefined } },
  { id: "failed", label: "Failed runs", patch: { sort: undefined, dir: undefined, state: "failed" } },
] as const satisfies readonly { id: string; label: string; patch: Partial<RunsFilters> }[];

const presetActive = (filters: RunsFilters, patch: Partial<RunsFilters>) =>
  (Object.keys(patch) as (keyof RunsFilters)[]).every((k) => (filters[k] ?? undefined) === (patch[k] ?? undefined) || (k === "sort" && !patch[k] && filters.sort === "start") || (k === "dir" && !patch[k] && filters.dir === "desc"));

const RANGES = [
  ["1h", 3_600_000],
  ["24h", 86_400_000],
  ["7d", 7 * 86_400_000],
  ["30d", 30 * 86_400_000],
] as const;

// datetime-local has no zone: the inputs are read and written on the clock the rest of the page
// shows, while the URL keeps epoch ms so a shared link means the same instants in any zone.
const toInput = (ms: string | undefined, zone: TimeZone) => (ms && Number.isFinite(Number(ms)) ? toWallInput(Number(ms), zone) : "");
const fromInput = (value: string, zone: TimeZone) => {
  const ms = value ? fromWallInput(value, zone) : null;
  return ms === null ? undefined : String(ms);
};

/** Filters of the runs list. Text fields apply on Enter or when they lose focus; the rest at once. */
export function RunsFiltersForm({ filters, onChange }: { filters: RunsFilters; onChange: (next: RunsFilters) => void }) {
  const facets = useQuery(runFacetsOptions(filters.project)).data;
  const { zone, label: labelNow } = useTimeZone();
  const zoneName = zoneLabelOf(zone, [filters.from, filters.to].filter((v) => v !== undefined && Number.isFinite(Number(v))).map(Number), labelNow);
  const set = (key: keyof RunsFilters, value: string | undefined) => {
    if ((filters[key] ?? "") === (value ?? "")) return;
    onChange({ ...filters, [key]: value });
  };
  return (
    <>
    <div className={styles.quick} role="group" aria-label="Presets" data-testid="run-presets">
      {RUN_PRESETS.map((p) => (
        <button key={p.id} type="button" className={styles.btn} data-preset={p.id} aria-pressed={presetActive(filters, p.patch)} onClick={() => onChange({ ...filters, ...p.patch })}>
          {p.label}
        </button>
      ))}
    </div>
    <form
      // A new zone rewrites the date-time inputs, which keep their typed value otherwise.
      key={`${zone} ${JSON.stringify(filters)}`}
      className={`${styles.panel} ${styles.filters}`}
      aria-label="Run filters"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const next: RunsFilters = { ...filters };
        for (const [key] of TEXT_FILTERS) next[key] = String(data.get(key) ?? "").trim() || undefined;
        next.text = String(data.get("text") ?? "").trim() || undefined;
        onChange(next);
      }}
    >
      {TEXT_FILTERS.map(([key, label, facet, match]) => (
        <Fragment key={key}>
        <label title={match === "contains" ? `matches any ${key} containing the text` : undefined}>
          {label}
          {/* The match rule is in the placeholder and description, so the accessible name stays "Tool" / "Code". */}
          <input name={key} aria-description={match === "contains" ? `matches any ${key} containing the text` : undefined} defaultValue={filters[key] ?? ""} placeholder={match === "contains" ? "any · contains…" : "any"} list={`runs-${key}-options`} autoComplete="off" onBlur={(e) => set(key, e.currentTarget.value.trim() || undefined)} />
        </label>
        {/* Outside the label: its options would otherwise join the field's accessible name. */}
        <datalist id={`runs-${key}-options`} data-testid={`suggestions-${key}`}>
          {facets?.[facet].map((v) => <option key={v} value={v} />)}
        </datalist>
        </Fragment>
      ))}
      <label title="full-text search: every word must match; quote a phrase; end a word with * for its start">
        Error or told text
        <input name="text" type="search" defaultValue={filters.text ?? ""} placeholder='words, "a phrase", prefix*' autoComplete="off" onBlur={(e) => set("text", e.currentTarget.value.trim() || undefined)} />
      </label>
      <label>
        Final state
        <CommitSelect name="state" value={filters.state ?? ""} onCommit={(v) => set("state", v || undefined)}>
          <option value="">any</option>
          {RUN_STATE_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s === "missing" ? "run record missing" : s}
            </option>
          ))}
        </CommitSelect>
      </label>
      <label>
        From ({zoneName})
        <input type="datetime-local" name="from" defaultValue={toInput(filters.from, zone)} onChange={(e) => set("from", fromInput(e.currentTarget.value, zone))} />
      </label>
      <label>
        To ({zoneName})
        <input type="datetime-local" name="to" defaultValue={toInput(filters.to, zone)} onChange={(e) => set("to", fromInput(e.currentTarget.value, zone))} />
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
        <input type="checkbox" name="hasErrors" checked={filters.hasErrors === "1"} onChange={(e) => set("hasErrors", e.currentTarget.checked ? "1" : undefined)} />
        has tool errors
      </label>
      <label className={styles.check} title="runs whose model turns left a tool call without a result, as the runtime counted them">
        <input type="checkbox" name="unanswered" checked={filters.unanswered === "1"} onChange={(e) => set("unanswered", e.currentTarget.checked ? "1" : undefined)} />
        left a tool call unanswered
        {facets ? <span className={styles.muted} data-testid="unanswered-count"> ({facets.unansweredRuns} {facets.unansweredRuns === 1 ? "run" : "runs"})</span> : null}
      </label>
      <button type="submit" className={styles.btn}>
        Apply
      </button>
    </form>
    </>
  );
}
