"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DEFAULT_RANGE, RANGE_KEYS, RANGES, resolveWindow, type RangeKey } from "@/lib/contracts/filters";
import { formatCount } from "@/lib/charts/format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { projectsQuery } from "@/lib/query/projects-query";
import { toolsQuery } from "@/lib/query/tool-queries";
import { pick, WINDOW_KEYS, type SearchKey } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";
import { CopyButton } from "./copy-button";
import { FilterSelect } from "./filter-select";
import { LiveControl } from "./live-control";
import { TimeRangePicker } from "./time-range-picker";

const RANGE_LABEL: Record<string, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
const FILTERS: { key: SearchKey; label: string; facet: "codes" | "outcomes" | "errorClasses" | "releases" | "services" | "environments" }[] = [
  { key: "code", label: "Code", facet: "codes" },
  { key: "outcome", label: "Outcome", facet: "outcomes" },
  { key: "error_class", label: "Error class", facet: "errorClasses" },
  { key: "release", label: "Release", facet: "releases" },
  { key: "service", label: "Agent", facet: "services" },
  { key: "environment", label: "Environment", facet: "environments" },
];

/** Project, time range and the narrowing filters; every change is a new URL (so back/forward work). */
export function FilterBar({ show = ["code", "outcome", "error_class", "release", "service", "environment"] }: { show?: SearchKey[] }) {
  const { search, update, hrefWith } = useUrlState();
  const projects = useQuery(projectsQuery());
  // Facets depend only on project and window; the default tools answer carries them.
  const facets = useQuery(toolsQuery(pick(search, WINDOW_KEYS))).data?.facets;
  const absolute = search.from !== undefined && search.to !== undefined;
  const active = FILTERS.filter((f) => search[f.key] !== undefined);
  const [picking, setPicking] = useState(false);
  const [now] = useState(() => Date.now());
  const range = (search.range && search.range in RANGES ? search.range : DEFAULT_RANGE) as RangeKey;
  const window = resolveWindow({ range, from: search.from === undefined ? undefined : Number(search.from), to: search.to === undefined ? undefined : Number(search.to) }, now);
  // The view with its window written out, so whoever opens the link later sees the same hours.
  const absoluteLink = () => `${location.origin}${hrefWith(location.pathname, { from: String(window.from), to: String(window.to), range: undefined, refresh: undefined })}`;
  return (
    <div className="filter-bar" role="search" aria-label="Filters">
      <label>
        Project
        <FilterSelect value={search.project ?? "default"} onCommit={(v) => update({ project: v === "default" ? undefined : v })} name="project">
          {(projects.data?.projects ?? [{ id: search.project ?? "default", name: search.project ?? "default", archivedAt: null }]).map((p) => (
            <option key={p.id} value={p.id}>
              {`${p.name === p.id ? p.id : `${p.name} (${p.id})`}${p.archivedAt === null ? "" : " · archived"}`}
            </option>
          ))}
        </FilterSelect>
      </label>
      <label>
        Time range
        <FilterSelect
          name="range"
          value={absolute ? "custom" : (search.range ?? DEFAULT_RANGE)}
          onCommit={(v) => (v === "pick" ? setPicking(true) : update({ range: v === DEFAULT_RANGE ? undefined : v, from: undefined, to: undefined }))}
        >
          {absolute && <option value="custom">Custom window</option>}
          {RANGE_KEYS.map((r) => (
            <option key={r} value={r}>
              {RANGE_LABEL[r]}
            </option>
          ))}
          <option value="pick">Custom range…</option>
        </FilterSelect>
      </label>
      {FILTERS.filter((f) => show.includes(f.key)).map((f) => {
        const current = search[f.key];
        const options = facets?.[f.facet] ?? [];
        const values = current !== undefined && !options.includes(current) ? [current, ...options] : options;
        const counts = facets?.counts[f.facet];
        return (
          <label key={f.key}>
            {f.label}
            <FilterSelect name={f.key} value={current ?? ""} title="The number beside each value: its attempts in the time range" onCommit={(v) => update({ [f.key]: v || undefined, offset: undefined })}>
              <option value="">All</option>
              {values.map((v) => (
                <option key={v} value={v}>
                  {f.key === "outcome" ? outcomeStyle(v).label : v}
                  {counts ? ` (${formatCount(counts[v] ?? 0)})` : ""}
                </option>
              ))}
              {facets?.truncated.includes(f.facet) && (
                <option disabled value="…">
                  First {options.length} by name; use the search box or a link for the others
                </option>
              )}
            </FilterSelect>
          </label>
        );
      })}
      {(active.length > 0 || search.tool) && (
        <button type="button" onClick={() => update(Object.fromEntries([...active.map((f) => [f.key, undefined]), ["tool", undefined]]))}>
          Clear filters
        </button>
      )}
      <div className="filter-tools">
        <LiveControl search={search} update={update} />
        <CopyButton text="" getText={absoluteLink} label="Copy a link to this view with its absolute time range">
          Copy link
        </CopyButton>
      </div>
      {picking && <TimeRangePicker search={search} update={update} window={window} onClose={() => setPicking(false)} />}
    </div>
  );
}
