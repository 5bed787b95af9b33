import { describe, expect, it } from "vitest";
import { formatBucket, formatBucketZoned, formatTime, formatTimeMs, formatUtcDay, formatUtcMinute, formatUtcSecond, formatWallTime } from "@/lib/charts/time-format";
import { fromWallInput, normalizeTimeZone, toWallInput, wallClock, zoneLabel, zoneLabelOf } from "@/lib/charts/time-zone";

// 2026-01-10 14:05:07.250 UTC: winter in both fixed zones.
const WINTER = Date.UTC(2026, 0, 10, 14, 5, 7, 250);
// 2026-07-10 14:05 UTC: summer time in both.
const SUMMER = Date.UTC(2026, 6, 10, 14, 5);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("zone names", () => {
  it("spellings of UTC become UTC; real zones keep their name; nonsense falls back to UTC", () => {
    expect(["UTC", "Etc/UTC", "etc/utc", "GMT", "Etc/GMT", "Zulu", "Etc/Universal"].map(normalizeTimeZone)).toEqual(["UTC", "UTC", "UTC", "UTC", "UTC", "UTC", "UTC"]);
    expect(normalizeTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(normalizeTimeZone("America/New_York")).toBe("America/New_York");
    expect(normalizeTimeZone("Mars/Olympus_Mons")).toBe("UTC");
    expect(normalizeTimeZone("")).toBe("UTC");
    expect(normalizeTimeZone(null)).toBe("UTC");
  });

  it("short labels depend on the instant: summer time has its own", () => {
    expect(zoneLabel(WINTER, "UTC")).toBe("UTC");
    expect(zoneLabel(WINTER, "Europe/Berlin")).toBe("GMT+1");
    expect(zoneLabel(SUMMER, "Europe/Berlin")).toBe("GMT+2");
    expect(zoneLabel(WINTER, "America/New_York")).toBe("EST");
    expect(zoneLabel(SUMMER, "America/New_York")).toBe("EDT");
    expect(zoneLabel(WINTER, "Asia/Kolkata")).toBe("GMT+5:30");
  });

  it("a column's label lists each name its times carry, in time order, or the fallback when empty", () => {
    expect(zoneLabelOf("America/New_York", [WINTER, WINTER + HOUR], "x")).toBe("EST");
    expect(zoneLabelOf("America/New_York", [SUMMER, WINTER], "x")).toBe("EST/EDT");
    expect(zoneLabelOf("Europe/Berlin", [], "GMT+1")).toBe("GMT+1");
    expect(zoneLabelOf("UTC", [WINTER, SUMMER], "x")).toBe("UTC");
  });
});

describe("wall clocks", () => {
  it("reads every field zero-padded on the zone's clock", () => {
    expect(wallClock(WINTER, "UTC")).toEqual({ year: "2026", month: "01", day: "10", hour: "14", minute: "05", second: "07", millisecond: "250" });
    expect(wallClock(WINTER, "Europe/Berlin")).toMatchObject({ day: "10", hour: "15", minute: "05" });
    // Midnight is 00, never 24.
    expect(wallClock(Date.UTC(2026, 0, 10, 5), "America/New_York")).toMatchObject({ day: "10", hour: "00", minute: "00" });
  });
});

describe("formatters with an explicit zone", () => {
  it("formatTime names the zone where the UTC text did", () => {
    expect(formatTime(WINTER, "UTC")).toBe("2026-01-10 14:05 UTC");
    expect(formatTime(WINTER, "Europe/Berlin")).toBe("2026-01-10 15:05 GMT+1");
    expect(formatTime(WINTER, "America/New_York")).toBe("2026-01-10 09:05 EST");
    expect(formatTime(SUMMER, "America/New_York")).toBe("2026-07-10 10:05 EDT");
    // Across midnight the date moves with the clock.
    expect(formatTime(Date.UTC(2026, 0, 10, 2, 30), "America/New_York")).toBe("2026-01-09 21:30 EST");
  });

  it("the timeline's formatTime keeps seconds and milliseconds; formatWallTime leaves the zone to the header", () => {
    expect(formatTimeMs(WINTER, "UTC")).toBe("2026-01-10 14:05:07.250 UTC");
    expect(formatTimeMs(WINTER, "Europe/Berlin")).toBe("2026-01-10 15:05:07.250 GMT+1");
    expect(formatTimeMs(WINTER, "America/New_York")).toBe("2026-01-10 09:05:07.250 EST");
    expect(formatWallTime(WINTER, "UTC")).toBe("2026-01-10 14:05:07");
    expect(formatWallTime(WINTER, "America/New_York")).toBe("2026-01-10 09:05:07");
  });

  it("hourly buckets: the bucket's start on the zone's clock; the tooltip form names the zone", () => {
    const t = Date.UTC(2026, 0, 10, 0);
    expect(formatBucket(t, HOUR, "UTC")).toBe("01-10 00:00");
    expect(formatBucket(t, HOUR, "Europe/Berlin")).toBe("01-10 01:00");
    expect(formatBucket(t, HOUR, "America/New_York")).toBe("01-09 19:00");
    expect(formatBucket(t, HOUR, "Asia/Kolkata")).toBe("01-10 05:30");
    expect(formatBucketZoned(t, HOUR, "UTC")).toBe("01-10 00:00 UTC");
    expect(formatBucketZoned(t, HOUR, "America/New_York")).toBe("01-09 19:00 EST");
    expect(formatBucketZoned(Date.UTC(2026, 6, 10, 0), HOUR, "Europe/Berlin")).toBe("07-10 02:00 GMT+2");
  });

  it("daily buckets stay UTC days: a date in UTC, the local start time elsewhere (never a local date the bucket does not cover)", () => {
    const t = Date.UTC(2026, 0, 10);
    expect(formatBucket(t, DAY, "UTC")).toBe("2026-01-10");
    expect(formatBucket(t, DAY, "America/New_York")).toBe("01-09 19:00");
    expect(formatBucket(t, DAY, "Europe/Berlin")).toBe("01-10 01:00");
    expect(formatBucketZoned(t, DAY, "UTC")).toBe("2026-01-10 UTC");
    expect(formatBucketZoned(t, DAY, "Europe/Berlin")).toBe("01-10 01:00 GMT+1");
  });
});

describe("datetime-local values on a zone's clock", () => {
  it("writes and reads back the same instant (to the minute)", () => {
    const t = Date.UTC(2026, 0, 10, 14, 5);
    expect(toWallInput(t, "UTC")).toBe("2026-01-10T14:05");
    expect(toWallInput(t, "Europe/Berlin")).toBe("2026-01-10T15:05");
    expect(toWallInput(t, "America/New_York")).toBe("2026-01-10T09:05");
    for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]) {
      for (const at of [t, SUMMER]) expect(fromWallInput(toWallInput(at, zone), zone), zone).toBe(at);
    }
  });

  it("reads wall time in the zone, with or without seconds", () => {
    expect(fromWallInput("2026-01-10T01:00", "UTC")).toBe(Date.UTC(2026, 0, 10, 1));
    expect(fromWallInput("2026-01-10T01:00", "Europe/Berlin")).toBe(Date.UTC(2026, 0, 10, 0));
    expect(fromWallInput("2026-01-09T20:00", "America/New_York")).toBe(Date.UTC(2026, 0, 10, 1));
    expect(fromWallInput("2026-01-09T20:00:30", "America/New_York")).toBe(Date.UTC(2026, 0, 10, 1, 0, 30));
  });

  it("an hour the clock skipped moves forward by the gap; an hour it showed twice takes the earlier instant", () => {
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT, so 02:30 does not exist; it reads as 03:30 EDT.
    expect(fromWallInput("2026-03-08T02:30", "America/New_York")).toBe(Date.UTC(2026, 2, 8, 7, 30));
    // New York, 2026-11-01: 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
    expect(fromWallInput("2026-11-01T01:30", "America/New_York")).toBe(Date.UTC(2026, 10, 1, 5, 30));
    // Berlin, 2026-03-29: 02:30 does not exist; it reads as 03:30 CEST.
    expect(fromWallInput("2026-03-29T02:30", "Europe/Berlin")).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  it("refuses what is not a date-time", () => {
    expect(fromWallInput("", "UTC")).toBeNull();
    expect(fromWallInput("2026-01-10", "UTC")).toBeNull();
    expect(fromWallInput("2026-13-10T01:00", "Europe/Berlin")).toBeNull();
    expect(fromWallInput("2026-01-10T25:00", "UTC")).toBeNull();
    expect(fromWallInput("garbage", "America/New_York")).toBeNull();
  });
});

describe("UTC formats of pages that name UTC themselves", () => {
  it("write a day, a minute and a second of the same instant", () => {
    const t = Date.UTC(2026, 0, 10, 14, 5, 9, 250);
    expect([formatUtcDay(t), formatUtcMinute(t), formatUtcSecond(t)]).toEqual(["2026-01-10", "2026-01-10 14:05", "2026-01-10 14:05:09"]);
  });
});
