/** Auto-refresh intervals the dashboard offers, as the URL's `refresh` spells them. */
export const REFRESH_OPTIONS = [
  { value: "", label: "Off", ms: 0 },
  { value: "10s", label: "Every 10 s", ms: 10_000 },
  { value: "30s", label: "Every 30 s", ms: 30_000 },
  { value: "1m", label: "Every minute", ms: 60_000 },
] as const;

/** The interval in ms of a `refresh` value, or false (off, or a value it does not know). */
export function refreshMs(value: string | null | undefined): number | false {
  const hit = REFRESH_OPTIONS.find((o) => o.value === value);
  return hit && hit.ms > 0 ? hit.ms : false;
}
