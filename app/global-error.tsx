"use client";

import { RenderError } from "@/components/dashboard/render-error";
import "./globals.css";

/**
 * The root layout itself failed (the shell could not render): the same words and retry as a page's
 * error, in the app's own styles, instead of Next's built-in page (whose inline styles every page's
 * script would otherwise carry).
 */
export default function GlobalError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main id="main" className="app-main">
          <RenderError {...props} />
        </main>
      </body>
    </html>
  );
}
