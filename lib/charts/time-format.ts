import { UTC, wallClock, zoneLabel, type TimeZone, type WallClock } from "./time-zone";

// Every way the dashboard writes an instant, in one place: pick by precision and whether the zone is
// named. Zoned formats follow the viewer's zone; the UTC ones are for pages that say "UTC" themselves.

/**
 * A bucket start as an axis tick in `zone`: month, day and time for hourly buckets; the date for daily
 * buckets in UTC. Buckets stay UTC hours and days (the rollups are): only their names follow the zone,
 * so outside UTC a daily bucket is named by the local time it starts at, never by a local date it does
 * not cover.
 */
export function formatBucket(t: number, stepMs: number, zone: TimeZone): string {
  const w = wallClock(t, zone);
  return stepMs < 86_400_000 || zone !== UTC ? `${w.month}-${w.day} ${w.hour}:${w.minute}` : `${w.year}-${w.month}-${w.day}`;
}

/** A bucket start with the zone named, for tooltips and titles: "01-10 14:00 UTC", "01-10 09:00 EST". */
export function formatBucketZoned(t: number, stepMs: number, zone: TimeZone): string {
  return `${formatBucket(t, stepMs, zone)} ${zoneLabel(t, zone)}`;
}

/** An instant to the minute in `zone`, zone named: "2026-01-10 14:05 UTC", "2026-01-10 15:05 GMT+1". */
export function formatTime(t: number, zone: TimeZone): string {
  const w = wallClock(t, zone);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute} ${zoneLabel(t, zone)}`;
}

const seconds = (w: WallClock) => `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second}`;

/** Wall time in `zone` to the second, zone not named (a column header names it): "2026-01-10 09:05:00". */
export function formatWallTime(ms: number, zone: TimeZone): string {
  return seconds(wallClock(ms, zone));
}

/** Wall time in `zone` with milliseconds, zone named: "2026-01-10 14:05:00.250 UTC", "… 09:05:00.250 EST". */
export function formatTimeMs(ms: number, zone: TimeZone): string {
  const w = wallClock(ms, zone);
  return `${seconds(w)}.${w.millisecond} ${zoneLabel(ms, zone)}`;
}

/** A UTC calendar day: "2026-01-10". */
export const formatUtcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A UTC instant to the minute, zone not named: "2026-01-10 14:05". */
export const formatUtcMinute = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/** A UTC instant to the second, zone not named: "2026-01-10 14:05:09". */
export const formatUtcSecond = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
