/** Compact, unit-bearing labels for axes, tiles and tooltips. */
export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${formatCount(ms)} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  if (ms < 3_600_000) return `${trim(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${trim(ms / 3_600_000)} h`;
  return `${trim(ms / 86_400_000)} d`;
}

// `undefined` is the browser's locale (the server's default where it renders): digits group and the
// decimal mark read as the reader expects. Formatters are cached: building one costs more than using it.
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(undefined, options)));
  return f;
}

export function formatPct(ratio: number | null, digits = 1): string {
  if (ratio === null) return "—";
  return numberFormat(`pct${digits}`, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(ratio);
}

export function formatCount(n: number): string {
  return numberFormat("count", { maximumFractionDigits: 0 }).format(n);
}

export function formatRatio(n: number | null, digits = 2): string {
  return n === null ? "—" : numberFormat(`ratio${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** The sum of a series' totals: what a chart next to a heading actually draws. */
export const sumValues = (totals: Record<string, number>): number => Object.values(totals).reduce((a, b) => a + b, 0);

/** A count with its noun, singular for exactly one: "1 attempt", "2 attempts", "1,204 calls". */
export function formatCountOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

const trim = (v: number) => numberFormat("trim", { maximumFractionDigits: 1 }).format(v);
