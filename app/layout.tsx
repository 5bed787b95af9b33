import type { Metadata, Viewport } from "next";
import { Suspense, type ReactNode } from "react";
import { AppNav } from "@/components/shell/app-nav";
import { RouteFocus } from "@/components/shell/route-focus";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Faultline", template: "%s" },
  description: "Agent tool errors: failing tools by code, retry timelines, drifting codes",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Providers>
          <div className="app">
            <Suspense fallback={<header className="app-nav" />}>
              <AppNav />
            </Suspense>
            <main id="main" className="app-main" tabIndex={-1}>
              {children}
            </main>
          </div>
          <RouteFocus />
        </Providers>
      </body>
    </html>
  );
}
