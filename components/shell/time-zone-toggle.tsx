"use client";

import { useTimeZone } from "./time-zone-provider";
import styles from "./time-zone-toggle.module.css";

/**
 * The dashboard-wide choice between the browser's time zone and UTC: two radios (Tab reaches the
 * group, arrow keys switch). Until the page hydrates the browser's zone is unknown, so the local
 * option says just "Local" and UTC is selected, as the server rendered it.
 */
export function TimeZoneToggle({ id }: { id?: string }) {
  const { mode, localZone, setMode } = useTimeZone();
  return (
    <fieldset id={id} className={styles.zone} data-testid="time-zone-toggle">
      <legend>Times</legend>
      <label>
        <input type="radio" name="time-zone" value="local" checked={mode === "local"} onChange={() => setMode("local")} />
        {localZone ? `Local (${localZone})` : "Local"}
      </label>
      <label>
        <input type="radio" name="time-zone" value="utc" checked={mode === "utc"} onChange={() => setMode("utc")} />
        UTC
      </label>
    </fieldset>
  );
}
