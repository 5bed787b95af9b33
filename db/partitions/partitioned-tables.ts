/** The raw tables that are RANGE partitioned by UTC day on PostgreSQL, with their partition key. */
export const PARTITIONED_TABLES = [
  { table: "tool_call_spans", timeColumn: "started_at" },
  { table: "tool_errors", timeColumn: "occurred_at" },
] as const;

export type PartitionedTable = (typeof PARTITIONED_TABLES)[number]["table"];

export const DAY_MS = 86_400_000;

/**
 * How long partition DDL waits for a table lock before giving up until the next run: a request
 * waiting for ACCESS EXCLUSIVE queues every later query behind it, so it must not wait long.
 */
export const PARTITION_LOCK_TIMEOUT = "3s";

/** Start of the UTC day holding `ms`. */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `<table>_pYYYYMMDD`, the daily partition holding the UTC day that starts at `dayStartMs`. */
export function partitionName(table: PartitionedTable, dayStartMs: number): string {
  return `${table}_p${new Date(dayStartMs).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/** The partition catching rows of days that have no partition of their own. */
export function defaultPartitionName(table: PartitionedTable): string {
  return `${table}_default`;
}
