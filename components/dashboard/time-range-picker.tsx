"use client";

import { useState } from "react";
import type { DashboardSearch, SearchKey } from "@/lib/query/search";

const pad = (n: number) => String(n).padStart(2, "0");

/** Epoch ms as a datetime-local value, in UTC or the browser's zone. */
function toInput(ms: number, utc: boolean): string {
  const d = new Date(ms);
  return utc
    ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromInput(value: string, utc: boolean): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const ms = utc ? Date.parse(`${value}:00Z`) : new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/**
 * An absolute window (the API's `from`/`to`, epoch ms) typed as two date-times, in the browser's
 * time zone or in UTC. Opens with the window on screen.
 */
export function TimeRangePicker({ search, update, window, onClose }: { search: DashboardSearch; update: (patch: Partial<Record<SearchKey, string | undefined>>) => void; window: { from: number; to: number }; onClose: () => void }) {
  const [utc, setUtc] = useState(false);
  const start = search.from !== undefined ? Number(search.from) : window.from;
  const end = search.to !== undefined ? Number(search.to) : window.to;
  const [from, setFrom] = useState(() => toInput(start, false));
  const [to, setTo] = useState(() => toInput(end, false));
  const f = fromInput(from, utc);
  const t = fromInput(to, utc);
  const problem = f === null || t === null ? "Give both a start and an end." : t <= f ? "The end must be after the start." : null;
  const switchZone = (nextUtc: boolean) => {
    // The same instants, written in the other zone.
    if (f !== null) setFrom(toInput(f, nextUtc));
    if (t !== null) setTo(toInput(t, nextUtc));
    setUtc(nextUtc);
  };
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
        <input type="datetime-local" name="from" value={from} onChange={(e) => setFrom(e.target.value)} required />
      </label>
      <label>
        To
        <input type="datetime-local" name="to" value={to} onChange={(e) => setTo(e.target.value)} required />
      </label>
      <label className="toggle">
        <input type="checkbox" name="utc" checked={utc} onChange={(e) => switchZone(e.target.checked)} /> UTC
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
