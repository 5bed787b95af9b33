import type { ReleaseKind } from "@/lib/contracts/drift";

export interface ReleaseKey {
  release: string;
  kind: ReleaseKind;
}

/** ISO 8601 week label (`2026-W45`) of an epoch-ms instant, in UTC. */
export function isoWeek(ms: number): string {
  const d = new Date(ms);
  const day = d.getUTCDay() || 7;
  // The ISO week belongs to the year of its Thursday.
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 4 - day);
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

const present = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

/**
 * The release of the emitting side: the tool's own version is the most specific, then the
 * service release, then the runtime SDK version, and only then a calendar week.
 */
export function releaseKey(toolVersion: string | null, release: string | null, sdkVersion: string | null, at: number): ReleaseKey {
  if (present(toolVersion)) return { release: toolVersion, kind: "tool_version" };
  if (present(release)) return { release, kind: "release" };
  if (present(sdkVersion)) return { release: sdkVersion, kind: "sdk_version" };
  return { release: isoWeek(at), kind: "week" };
}
