/** Rollup period lengths: hourly for windows up to two days, six-hourly for longer ones. */
export const HOUR_MS = 3_600_000;
export const SIX_HOURS_MS = 6 * HOUR_MS;

/** Start of the UTC period of length `periodMs` containing `ms`. */
export const periodOf = (ms: number, periodMs: number = HOUR_MS) => Math.floor(ms / periodMs) * periodMs;
