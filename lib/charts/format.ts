/** Compact, unit-bearing labels for axes, tiles and tooltips. */
export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  if (ms < 3_600_000) return `${trim(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${trim(ms / 3_600_000)} h`;
  return `${trim(ms / 86_400_000)} d`;
}

export function formatPct(ratio: number | null, digits = 1): string {
  if (ratio === null) return "—";
  return `${(ratio * 100).toFixed(digits)}%`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

export function formatRatio(n: number | null, digits = 2): string {
  return n === null ? "—" : n.toFixed(digits);
}

/** A bucket start as UTC text: hours for hourly buckets, dates otherwise. */
export function formatBucket(t: number, stepMs: number): string {
  const iso = new Date(t).toISOString();
  return stepMs < 86_400_000 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

export function formatTime(t: number): string {
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const trim = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, ""));
