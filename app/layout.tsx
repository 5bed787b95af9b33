import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppNav } from "@/components/shell/app-nav";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Faultline",
  description: "Agent tool errors: failing tools by code, retry timelines, drifting codes",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <div className="app">
            <AppNav />
            <main className="app-main">{children}</main>
          </div>
        </Providers>
      </body>
    </html>
  );
}
