"use client";

import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { runtimeTimeZone, UTC, zoneLabel, type TimeZone } from "@/lib/charts/time-zone";

/** Which clock the dashboard's times are read on: the browser's or UTC. */
export type TimeZoneMode = "local" | "utc";

/** The zone preference as components use it. */
export interface TimeZoneState {
  /** What every formatter gets: "UTC" or the browser's IANA zone. */
  zone: TimeZone;
  mode: TimeZoneMode;
  /** The browser's zone; null until the component has hydrated (the server cannot know it). */
  localZone: TimeZone | null;
  /** The zone's short name now ("UTC", "EST"), for labels with no times of their own to name it by. */
  label: string;
  setMode: (mode: TimeZoneMode) => void;
}

const STORAGE_KEY = "faultline.time-zone";

/** Where the choice lives: localStorage, watched for writes from this tab and from others. */
interface ZoneStore {
  subscribe: (onChange: () => void) => () => void;
  read: () => TimeZoneMode;
  write: (mode: TimeZoneMode) => void;
}

function createZoneStore(): ZoneStore {
  // Where localStorage refuses writes (some private modes) the choice still holds for this page's life.
  let memoryMode: TimeZoneMode | null = null;
  const listeners = new Set<() => void>();
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      // Another tab's choice applies here too.
      const onStorage = (e: StorageEvent) => {
        if (e.key === STORAGE_KEY || e.key === null) onChange();
      };
      window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener("storage", onStorage);
      };
    },
    read() {
      if (memoryMode) return memoryMode;
      try {
        return window.localStorage.getItem(STORAGE_KEY) === "utc" ? "utc" : "local";
      } catch {
        return "local";
      }
    },
    write(mode) {
      try {
        window.localStorage.setItem(STORAGE_KEY, mode);
        memoryMode = null;
      } catch {
        memoryMode = mode;
      }
      for (const l of listeners) l();
    },
  };
}

const subscribeNever = () => () => {};
// The browser's zone does not change under a page; read once, and React compares the same string.
let browserZone: TimeZone | null = null;
const readBrowserZone = () => (browserZone ??= runtimeTimeZone());

// The server renders UTC and knows no browser zone. Each component reads the store with
// useSyncExternalStore, which hydrates it with these server values and only then re-renders it with
// the stored choice and the browser's zone. Reading per component, not once in the provider, matters:
// a Suspense boundary that hydrates late would otherwise hydrate against the already-switched value
// and React would report a mismatch (#418).
const serverMode = (): TimeZoneMode | null => null;
const serverZone = (): TimeZone | null => null;

// Without a provider (an isolated render) the choice lives in the page's own store.
let defaultStore: ZoneStore | null = null;
const ZoneStoreContext = createContext<ZoneStore | null>(null);

/** Owns the zone preference (stored in localStorage, the browser's zone by default) for the tree below. */
export function TimeZoneProvider({ children }: { children: ReactNode }) {
  const [store] = useState(createZoneStore);
  return <ZoneStoreContext.Provider value={store}>{children}</ZoneStoreContext.Provider>;
}

/**
 * The zone the dashboard shows times in, and the switch between local time and UTC. UTC (mode "utc",
 * no local zone) during hydration, so the first client render matches the server's text.
 */
export function useTimeZone(): TimeZoneState {
  const store = useContext(ZoneStoreContext) ?? (defaultStore ??= createZoneStore());
  const stored = useSyncExternalStore(store.subscribe, store.read, serverMode);
  const localZone = useSyncExternalStore(subscribeNever, readBrowserZone, serverZone);
  return useMemo<TimeZoneState>(() => {
    if (stored === null || localZone === null) return { zone: UTC, mode: "utc", localZone: null, label: UTC, setMode: store.write };
    const zone = stored === "utc" ? UTC : localZone;
    return { zone, mode: stored, localZone, label: currentLabel(zone), setMode: store.write };
  }, [stored, localZone, store]);
}

// A label for "now" changes only at a summer-time switch; reading the clock once per zone change is enough.
function currentLabel(zone: TimeZone): string {
  return zoneLabel(Date.now(), zone);
}
