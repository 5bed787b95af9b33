"use client";

import { useQuery } from "@tanstack/react-query";
import { DEFAULT_RANGE, RANGE_KEYS } from "@/lib/contracts/filters";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { projectsQuery, toolsQuery } from "@/lib/query/keys";
import { pick, WINDOW_KEYS, type SearchKey } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";

const RANGE_LABEL: Record<string, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
const FILTERS: { key: SearchKey; label: string; facet: "codes" | "outcomes" | "errorClasses" | "releases" | "services" }[] = [
  { key: "code", label: "Code", facet: "codes" },
  { key: "outcome", label: "Outcome", facet: "outcomes" },
  { key: "error_class", label: "Error class", facet: "errorClasses" },
  { key: "release", label: "Release", facet: "releases" },
  { key: "service", label: "Agent", facet: "services" },
];

/** Project, time range and the narrowing filters; every change is a new URL (so back/forward work). */
export function FilterBar({ show = ["code", "outcome", "error_class", "release", "service"] }: { show?: SearchKey[] }) {
  const { search, update } = useUrlState();
  const projects = useQuery(projectsQuery());
  // Facets depend only on project and window; the default tools answer carries them.
  const facets = useQuery(toolsQuery(pick(search, WINDOW_KEYS))).data?.facets;
  const absolute = search.from !== undefined && search.to !== undefined;
  const active = FILTERS.filter((f) => search[f.key] !== undefined);
  return (
    <div className="filter-bar" role="search" aria-label="Filters">
      <label>
        Project
        <select value={search.project ?? "default"} onChange={(e) => update({ project: e.target.value === "default" ? undefined : e.target.value })} name="project">
          {(projects.data?.projects ?? [{ id: search.project ?? "default", name: search.project ?? "default" }]).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name === p.id ? p.id : `${p.name} (${p.id})`}
            </option>
          ))}
        </select>
      </label>
      <label>
        Time range
        <select
          name="range"
          value={absolute ? "custom" : (search.range ?? DEFAULT_RANGE)}
          onChange={(e) => update({ range: e.target.value === DEFAULT_RANGE ? undefined : e.target.value, from: undefined, to: undefined })}
        >
          {absolute && <option value="custom">Custom window</option>}
          {RANGE_KEYS.map((r) => (
            <option key={r} value={r}>
              {RANGE_LABEL[r]}
            </option>
          ))}
        </select>
      </label>
      {FILTERS.filter((f) => show.includes(f.key)).map((f) => {
        const current = search[f.key];
        const options = facets?.[f.facet] ?? [];
        const values = current !== undefined && !options.includes(current) ? [current, ...options] : options;
        return (
          <label key={f.key}>
            {f.label}
            <select name={f.key} value={current ?? ""} onChange={(e) => update({ [f.key]: e.target.value || undefined })}>
              <option value="">All</option>
              {values.map((v) => (
                <option key={v} value={v}>
                  {f.key === "outcome" ? outcomeStyle(v).label : v}
                </option>
              ))}
            </select>
          </label>
        );
      })}
      {(active.length > 0 || search.tool) && (
        <button type="button" onClick={() => update(Object.fromEntries([...active.map((f) => [f.key, undefined]), ["tool", undefined]]))}>
          Clear filters
        </button>
      )}
    </div>
  );
}
