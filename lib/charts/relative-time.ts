const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"} ago`;

/** How long before `now` an instant was, in words: "just now", "5 minutes ago", "3 days ago". */
export function formatRelative(t: number, now: number): string {
  const ago = now - t;
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return unit(Math.floor(ago / MINUTE), "minute");
  if (ago < DAY) return unit(Math.floor(ago / HOUR), "hour");
  if (ago < 60 * DAY) return unit(Math.floor(ago / DAY), "day");
  return unit(Math.floor(ago / (30 * DAY)), "month");
}
