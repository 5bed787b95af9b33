/**
 * Wall-clock arithmetic for one named zone, on `Intl` alone. Every function takes the zone as an
 * argument ("UTC" or an IANA name such as "Europe/Berlin"), so the same inputs give the same text on
 * the server and in any browser.
 */

/** The zone every stored time and every rollup boundary is in. */
export const UTC = "UTC";

/** "UTC" or an IANA zone name. */
export type TimeZone = string;

// Names that are UTC under another spelling: normalised so a UTC browser formats exactly as UTC mode
// does and its preference switch changes no text.
const UTC_ALIASES = new Set(["utc", "etc/utc", "etc/uct", "uct", "etc/universal", "universal", "etc/zulu", "zulu", "gmt", "etc/gmt", "etc/gmt0", "etc/gmt+0", "etc/gmt-0", "gmt0", "gmt+0", "gmt-0", "etc/greenwich", "greenwich"]);

// Building a DateTimeFormat costs far more than using one; a page formats hundreds of times per zone.
const wallFormats = new Map<TimeZone, Intl.DateTimeFormat>();
const nameFormats = new Map<TimeZone, Intl.DateTimeFormat>();

function cached(cache: Map<TimeZone, Intl.DateTimeFormat>, zone: TimeZone, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = cache.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", { ...options, timeZone: zone });
    } catch {
      // An unknown zone name formats as UTC (and is labelled UTC) rather than failing the page.
      f = new Intl.DateTimeFormat("en-US", { ...options, timeZone: UTC });
    }
    cache.set(zone, f);
  }
  return f;
}

/** "UTC" for any spelling of UTC, the name itself for another valid zone, "UTC" for anything else. */
export function normalizeTimeZone(zone: string | null | undefined): TimeZone {
  if (!zone || UTC_ALIASES.has(zone.toLowerCase())) return UTC;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return UTC;
  }
}

/** The zone this runtime's clock is set to (the browser's, in a browser), normalised. */
export function runtimeTimeZone(): TimeZone {
  return normalizeTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** A wall-clock reading, each field zero-padded: year 4 digits, milliseconds 3, the rest 2. */
export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  millisecond: string;
}

const pad = (v: number | string, n = 2) => String(v).padStart(n, "0");

/** What a clock in `zone` showed at epoch ms `t`. */
export function wallClock(t: number, zone: TimeZone): WallClock {
  // en-US with h23 is only the source of the numbers: the text is assembled here, the same everywhere.
  const parts = cached(wallFormats, zone, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(t);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "0";
  return {
    year: pad(part("year"), 4),
    month: pad(part("month")),
    day: pad(part("day")),
    hour: pad(part("hour")),
    minute: pad(part("minute")),
    second: pad(part("second")),
    millisecond: pad(((t % 1000) + 1000) % 1000, 3),
  };
}

/**
 * The zone's short name at `t`, as en-US spells it: "UTC", "EST"/"EDT" for America/New_York,
 * "GMT+1"/"GMT+2" for Europe/Berlin. It depends on the instant, since summer time has its own name.
 */
export function zoneLabel(t: number, zone: TimeZone): string {
  if (zone === UTC) return UTC;
  return cached(nameFormats, zone, { timeZoneName: "short" }).formatToParts(t).find((p) => p.type === "timeZoneName")?.value ?? zone;
}

/**
 * One label for a column of times: the distinct short names of `instants` in time order ("EST",
 * "EST/EDT" when the column spans a change to summer time), or `fallback` when there are none.
 */
export function zoneLabelOf(zone: TimeZone, instants: Iterable<number>, fallback: string): string {
  if (zone === UTC) return UTC;
  const firstAt = new Map<string, number>();
  for (const t of instants) {
    const label = zoneLabel(t, zone);
    const seen = firstAt.get(label);
    if (seen === undefined || t < seen) firstAt.set(label, t);
  }
  if (firstAt.size === 0) return fallback;
  return [...firstAt].sort((a, b) => a[1] - b[1]).map(([label]) => label).join("/");
}

/** Epoch ms `t` as a `<input type="datetime-local">` value (minutes) on the wall clock of `zone`. */
export function toWallInput(t: number, zone: TimeZone): string {
  const w = wallClock(t, zone);
  return `${w.year}-${w.month}-${w.day}T${w.hour}:${w.minute}`;
}

// How far the zone's clock is ahead of UTC at `t`, in ms.
function offsetAt(t: number, zone: TimeZone): number {
  const w = wallClock(t, zone);
  const asUtc = Date.UTC(Number(w.year), Number(w.month) - 1, Number(w.day), Number(w.hour), Number(w.minute), Number(w.second), Number(w.millisecond));
  return asUtc - t;
}

const DAY_MS = 86_400_000;

/**
 * A `datetime-local` value read as wall time in `zone`, as epoch ms; null when it is not one. A time
 * the clock skipped (the hour lost to summer time) moves forward by the gap, and a time it showed
 * twice takes the earlier instant, as most calendars and Temporal's "compatible" rule do.
 */
export function fromWallInput(value: string, zone: TimeZone): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not.
  const asUtc = new Date(Date.UTC(2000, mo - 1, d, h, mi, s)).setUTCFullYear(y);
  if (!Number.isFinite(asUtc)) return null;
  if (zone === UTC) return asUtc;
  // Offsets a day either side cover any single change of the zone's rules around this wall time.
  const before = offsetAt(asUtc - DAY_MS, zone);
  const after = offsetAt(asUtc + DAY_MS, zone);
  const fits = [...new Set([before, after])].map((o) => asUtc - o).filter((t) => offsetAt(t, zone) === asUtc - t);
  return fits.length > 0 ? Math.min(...fits) : asUtc - before;
}
