"use client";

import { useState } from "react";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { fromWallInput, toWallInput } from "@/lib/charts/time-zone";
import type { DashboardSearch, SearchKey } from "@/lib/query/search";

/**
 * An absolute window (the API's `from`/`to`, epoch ms) typed as two date-times on the dashboard's
 * clock: the browser's zone or UTC, as the header's switch says; the UTC box here is that same switch.
 * Opens with the window on screen.
 */
export function TimeRangePicker({ search, update, window, onClose }: { search: DashboardSearch; update: (patch: Partial<Record<SearchKey, string | undefined>>) => void; window: { from: number; to: number }; onClose: () => void }) {
  const { zone, mode, setMode } = useTimeZone();
  const start = search.from !== undefined ? Number(search.from) : window.from;
  const end = search.to !== undefined ? Number(search.to) : window.to;
  const [inputs, setInputs] = useState(() => ({ zone, from: toWallInput(start, zone), to: toWallInput(end, zone) }));
  // The zone changed (here, in the header, or at hydration): the same instants, written on the new clock.
  if (inputs.zone !== zone) {
    const rewrite = (value: string) => {
      const ms = fromWallInput(value, inputs.zone);
      return ms === null ? value : toWallInput(ms, zone);
    };
    setInputs({ zone, from: rewrite(inputs.from), to: rewrite(inputs.to) });
  }
  const f = fromWallInput(inputs.from, inputs.zone);
  const t = fromWallInput(inputs.to, inputs.zone);
  const problem = f === null || t === null ? "Give both a start and an end." : t <= f ? "The end must be after the start." : null;
  return (
    <form
      className="range-picker"
      aria-label="Custom time range"
      data-testid="range-picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem || f === null || t === null) return;
        update({ from: String(f), to: String(t), range: undefined });
        onClose();
      }}
    >
      <label>
        From
        <input type="datetime-local" name="from" value={inputs.from} onChange={(e) => setInputs({ ...inputs, from: e.target.value })} required />
      </label>
      <label>
        To
        <input type="datetime-local" name="to" value={inputs.to} onChange={(e) => setInputs({ ...inputs, to: e.target.value })} required />
      </label>
      <label className="toggle">
        <input type="checkbox" name="utc" checked={mode === "utc"} onChange={(e) => setMode(e.target.checked ? "utc" : "local")} /> UTC
      </label>
      <button type="submit" className="btn" disabled={problem !== null}>
        Apply
      </button>
      <button type="button" className="btn" onClick={onClose}>
        Cancel
      </button>
      {problem && <span className="note" role="status">{problem}</span>}
    </form>
  );
}
