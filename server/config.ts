import path from "node:path";
import { z } from "zod";

const DAY_MS = 86_400_000;

const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `a whole number from ${min} to ${max}`).max(max, `a whole number from ${min} to ${max}`))
    .optional()
    .transform((v) => v ?? fallback);

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/**
 * Every environment variable the server reads, with its accepted range and default (documented in
 * the README). An unset or empty variable takes the default; anything else out of range stops the
 * start, because a silently ignored setting (a backpressure limit of `abc`) is worse than no start.
 */
const envSchema = z.object({
  // The job worker opens its own connection to the same file, so the server needs a file.
  FAULTLINE_DB_PATH: optionalText.refine((v) => v !== ":memory:", "a file path (the server cannot run on :memory:)"),
  FAULTLINE_BUSY_TIMEOUT_MS: int(0, 600_000, 5000),
  // 0 refuses every ingest request with 429 (a maintenance switch, and how tests reach the limit).
  FAULTLINE_MAX_INFLIGHT: int(0, 10_000, 64),
  FAULTLINE_RETENTION_DAYS: int(1, 36_500, 30),
  FAULTLINE_MAX_SPANS: int(1000, 10_000_000_000, 10_000_000),
  FAULTLINE_ROLLUP_RETENTION_DAYS: int(1, 36_500, 400),
  FAULTLINE_DRIFT_REFRESH_MS: int(0, 3_600_000, 2000),
  FAULTLINE_DRIFT_MAX_WAIT_MS: int(0, 86_400_000, 30_000),
  FAULTLINE_RETENTION_EVERY_MS: int(60_000, 7 * DAY_MS, 3_600_000),
  FAULTLINE_ADMIN_SECRET: optionalText,
});

/** The parsed configuration; see `loadConfig`. */
export interface Config {
  dbPath: string;
  busyTimeoutMs: number;
  maxInflight: number;
  retentionDays: number;
  maxSpans: number;
  rollupRetentionDays: number;
  driftQuietMs: number;
  driftMaxWaitMs: number;
  retentionEveryMs: number;
  adminSecret: string | undefined;
}

/** A configuration error worded for one line of a start-up log. */
export class ConfigError extends Error {}

/** Parses the environment; throws a `ConfigError` naming the first bad variable and its accepted range. */
export function parseConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  // Empty strings are "unset" for the number fields too: `FAULTLINE_MAX_INFLIGHT=` keeps the default.
  const present = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith("FAULTLINE_") && v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`invalid ${name}=${JSON.stringify(env[name] ?? "")}: expected ${issue.message}`);
  }
  const e = parsed.data;
  return {
    dbPath: e.FAULTLINE_DB_PATH ?? path.join(cwd, "data", "faultline.db"),
    busyTimeoutMs: e.FAULTLINE_BUSY_TIMEOUT_MS,
    maxInflight: e.FAULTLINE_MAX_INFLIGHT,
    retentionDays: e.FAULTLINE_RETENTION_DAYS,
    maxSpans: e.FAULTLINE_MAX_SPANS,
    rollupRetentionDays: e.FAULTLINE_ROLLUP_RETENTION_DAYS,
    driftQuietMs: e.FAULTLINE_DRIFT_REFRESH_MS,
    driftMaxWaitMs: e.FAULTLINE_DRIFT_MAX_WAIT_MS,
    retentionEveryMs: e.FAULTLINE_RETENTION_EVERY_MS,
    adminSecret: e.FAULTLINE_ADMIN_SECRET,
  };
}

const cache = globalThis as unknown as { __faultlineConfig?: Config };

/** The process's configuration, parsed once (the instrumentation hook parses it first and stops a bad start). */
export function config(): Config {
  cache.__faultlineConfig ??= parseConfig(process.env);
  return cache.__faultlineConfig;
}
