import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata, Viewport } from "next";
import { Suspense, type ReactNode } from "react";
import { SetupBanner } from "@/components/auth/setup-banner";
import { AppNav } from "@/components/shell/app-nav";
import { RouteFocus } from "@/components/shell/route-focus";
import { meQuery } from "@/lib/query/auth";
import { isStorageUnavailable } from "@/server/http/api-error";
import { meRoute } from "@/server/routes/auth";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Faultline", template: "%s" },
  description: "Agent tool errors: failing tools by code, retry timelines, drifting codes",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Who is asking, in the first paint: the nav's role-dependent links, the account menu and the setup
  // banner then render the same on the server and in the browser (no hydration mismatch, no pop-in).
  // Nobody signed in (the sign-in and invitation pages) has nothing to show there.
  const qc = new QueryClient();
  // Storage out of reach: the shell still renders, around the page that says so (proxy.ts).
  await meRoute.prefetch(qc, { params: {}, search: {} }).catch((error: unknown) => {
    if (!isStorageUnavailable(error)) throw error;
  });
  const signedIn = qc.getQueryData(meQuery().queryKey) !== undefined;
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Providers>
          <HydrationBoundary state={dehydrate(qc)}>
            <div className="app">
              {/* The column's background spans the whole page; the nav inside it stays on screen. */}
              <div className="app-side" data-testid="app-side">
                <Suspense fallback={<header className="app-nav" />}>
                  <AppNav />
                </Suspense>
              </div>
              <main id="main" className="app-main" tabIndex={-1}>
                {signedIn ? <SetupBanner /> : null}
                {children}
              </main>
            </div>
          </HydrationBoundary>
          <RouteFocus />
        </Providers>
      </body>
    </html>
  );
}
