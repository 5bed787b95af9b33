"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { REFRESH_OPTIONS } from "@/lib/query/refresh";
import type { DashboardSearch, SearchKey } from "@/lib/query/search";

/** The newest answer any query of the page holds (ms), 0 before the first. */
function useLastUpdated(): number {
  const qc = useQueryClient();
  const cache = qc.getQueryCache();
  const read = () => cache.getAll().reduce((max, q) => (q.getObserversCount() > 0 ? Math.max(max, q.state.dataUpdatedAt) : max), 0);
  return useSyncExternalStore((cb) => cache.subscribe(cb), read, () => 0);
}

/**
 * Auto-refresh, kept in the URL (`refresh=10s|30s|1m`, so a shared link refreshes too); the page's
 * reads refetch on that interval while the tab is visible (useKeptQuery), and this says how old the
 * numbers on screen are.
 */
export function LiveControl({ search, update }: { search: DashboardSearch; update: (patch: Partial<Record<SearchKey, string | undefined>>) => void }) {
  const updated = useLastUpdated();
  const [now, setNow] = useState(0);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const t = setInterval(tick, 1000);
    return () => clearInterval(t);
  }, []);
  const age = updated > 0 && now > 0 ? Math.max(0, Math.round((now - updated) / 1000)) : null;
  return (
    <div className="live-control">
      <label>
        Auto-refresh
        <select name="refresh" value={search.refresh ?? ""} onChange={(e) => update({ refresh: e.target.value || undefined })}>
          {REFRESH_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <span className="updated" data-testid="updated-ago" aria-live="off">
        {age === null ? "" : age < 60 ? `updated ${age} s ago` : `updated ${Math.floor(age / 60)} min ago`}
      </span>
    </div>
  );
}
