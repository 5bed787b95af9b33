"use client";

import { useNow } from "@/components/dashboard/use-now";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import { formatRelative } from "@/lib/charts/relative-time";

/**
 * An instant as "5 minutes ago", with the exact time (in the dashboard's time zone) in its title.
 * The server cannot know the browser's clock, so the server render and the first client render
 * show the exact time; the relative one follows once the view has mounted.
 */
export function RelativeTime({ at }: { at: number }) {
  const now = useNow(0);
  const { zone } = useTimeZone();
  const exact = formatTime(at, zone);
  return (
    <time dateTime={new Date(at).toISOString()} title={exact}>
      {now === 0 ? exact : formatRelative(at, now)}
    </time>
  );
}
