import type { IssueSummary } from "@/lib/contracts/issues";

/** A UTC date and time to the minute. */
export const formatTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/** The state with what qualifies it: the release of a fix, the end of an ignore. */
export function stateLabel(i: Pick<IssueSummary, "state" | "resolution" | "ignore">): string {
  if (i.state === "resolved" && i.resolution) {
    if (i.resolution.mode === "next_release") return `resolved in the release after ${i.resolution.release}`;
    if (i.resolution.mode === "in_release") return `resolved in ${i.resolution.release}`;
    return "resolved";
  }
  if (i.state === "ignored" && i.ignore) {
    if (i.ignore.mode === "until_date") return `ignored until ${formatTime(i.ignore.limit)} UTC`;
    if (i.ignore.mode === "until_count") return `ignored until ${i.ignore.limit} failures`;
    return `ignored until an hour has more than ${i.ignore.limit} failures`;
  }
  return i.state;
}
