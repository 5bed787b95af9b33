import type { ToolRow } from "@/lib/contracts/tools";

type Cell = string | number | null;

const COLUMNS: [string, (r: ToolRow) => Cell][] = [
  ["tool", (r) => r.tool],
  ["calls", (r) => r.calls],
  ["attempts", (r) => r.attempts],
  // Per attempt: attempts not ok, and their share of attempts.
  ["failures", (r) => r.failures],
  ["failure_rate", (r) => r.failureRate],
  ["declined", (r) => r.declined],
  ["refused", (r) => r.refused],
  ["mean_attempts", (r) => r.meanAttempts],
  ["max_attempts", (r) => r.maxAttempts],
  ["retry_share", (r) => r.retryShare],
  ["failed_closed", (r) => r.failedClosed],
  ["top_codes", (r) => r.topCodes.map((c) => `${c.code}:${c.failures}`).join(" ")],
  ["retry_after_p50_ms", (r) => r.retryAfter.p50],
  ["retry_after_p90_ms", (r) => r.retryAfter.p90],
  ["backoff_p50_ms", (r) => r.backoff.p50],
  ["backoff_p90_ms", (r) => r.backoff.p90],
  ["unnumbered_attempts", (r) => r.unnumbered],
  // Per call (appended, so that existing column positions stay): calls whose last attempt was not ok.
  ["calls_not_ok", (r) => r.callsNotOk],
  ["call_not_ok_rate", (r) => r.callNotOkRate],
];

// Spreadsheet apps run a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180 quoting), with client text that looks like a formula neutralised by a leading quote. */
export function csvCell(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toolsCsv(rows: ToolRow[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(",")];
  for (const r of rows) lines.push(COLUMNS.map(([, get]) => csvCell(get(r))).join(","));
  return lines.join("\r\n") + "\r\n";
}

export function toolsNdjson(rows: ToolRow[]): string {
  return rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
}
