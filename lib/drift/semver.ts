import type { DriftBump } from "@/lib/contracts/drift";

export interface ParsedVersion {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

// Loose on purpose: tool authors write "v1.4", "1.4" and "1.4.0-rc.1"; build metadata is ignored.
const VERSION = /^v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a version label, or returns null when it is not a (loose) semantic version. */
export function parseVersion(label: string): ParsedVersion | null {
  const m = VERSION.exec(label.trim());
  if (!m) return null;
  return {
    major: Number(m[1]),
    minor: Number(m[2] ?? 0),
    patch: Number(m[3] ?? 0),
    prerelease: m[4] ? m[4].split(".") : [],
  };
}

function comparePrerelease(a: string[], b: string[]): number {
  // A release without a pre-release tag ranks above any of its pre-releases.
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** SemVer precedence of two parsed versions. */
export function compareVersions(a: ParsedVersion, b: ParsedVersion): number {
  return Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch) || comparePrerelease(a.prerelease, b.prerelease);
}

export interface ReleaseItem {
  release: string;
  firstSeen: number;
}

export interface OrderedReleases<T extends ReleaseItem> {
  order: "semver" | "first_seen";
  items: T[];
}

/**
 * Orders releases oldest first: by SemVer precedence when every label parses, otherwise by first
 * sighting (a mixed series has no trustworthy version order).
 */
export function orderReleases<T extends ReleaseItem>(items: readonly T[]): OrderedReleases<T> {
  const parsed = items.map((item) => ({ item, v: parseVersion(item.release) }));
  if (parsed.length > 0 && parsed.every((p) => p.v !== null)) {
    const sorted = parsed.sort((a, b) => compareVersions(a.v!, b.v!) || a.item.firstSeen - b.item.firstSeen || (a.item.release < b.item.release ? -1 : 1));
    return { order: "semver", items: sorted.map((p) => p.item) };
  }
  const sorted = [...items].sort((a, b) => a.firstSeen - b.firstSeen || (a.release < b.release ? -1 : a.release > b.release ? 1 : 0));
  return { order: "first_seen", items: sorted };
}

// A major of 1000 or more is a year (2026.11.3): calendar versions make no compatibility promise.
const CALENDAR_MAJOR = 1000;

/** Which component changed going from `from` to `to`; `not_semver` unless both parse as SemVer. */
export function bumpBetween(from: string, to: string): DriftBump {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b || a.major >= CALENDAR_MAJOR || b.major >= CALENDAR_MAJOR) return "not_semver";
  if (a.major !== b.major) return "major";
  // Before 1.0 the minor plays the major's role (SemVer §4 and the reference kit's policy).
  if (a.minor !== b.minor) return a.major === 0 ? "pre1_minor" : "minor";
  if (a.patch !== b.patch) return "patch";
  return "prerelease";
}
