"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { TimeZoneProvider } from "@/components/shell/time-zone-provider";
import { makeQueryClient } from "@/lib/query/make-query-client";

/** Client-side state every page shares: the query cache and the time zone preference. */
export function Providers({ children }: { children: ReactNode }) {
  // Effects run children first, so this marks the moment the page's handlers are attached: browser
  // tests (and anyone scripting the dashboard) wait for it before typing or choosing.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <QueryClientProvider client={makeQueryClient()}>
      <TimeZoneProvider>{children}</TimeZoneProvider>
    </QueryClientProvider>
  );
}
