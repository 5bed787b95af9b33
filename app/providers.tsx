"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { TimeZoneProvider } from "@/components/shell/time-zone-provider";
import { makeQueryClient } from "@/lib/query/make-query-client";

/** Client-side state every page shares: the query cache and the time zone preference. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={makeQueryClient()}>
      <TimeZoneProvider>{children}</TimeZoneProvider>
    </QueryClientProvider>
  );
}
