import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { useBrowserSession } from "../helpers/browser-session";
import { WINDOW, seedFixture } from "../api/read-fixture";

// axe-core on every page, light and dark: no serious or critical violation. axe is injected as a
// script, which the page's nonce CSP refuses, so this file's contexts bypass CSP (only here).
const session = useBrowserSession({ seed: seedFixture });

const PAGES = [
  `/?${WINDOW}`,
  `/tools?${WINDOW}`,
  `/tools/cancel_booking?${WINDOW}`,
  `/codes?${WINDOW}`,
  `/codes/upstream_unavailable?${WINDOW}`,
  "/runs",
  "/runs/run-1",
  "/drift",
  "/conformance",
  "/issues",
  "/alerts",
  "/alerts/history",
  "/tools/nope",
  "/releases",
  "/releases/r2",
  // A bad parameter's in-app 400, on a list and on a release page.
  "/runs?hasErrors=maybe",
  `/releases/${"r".repeat(201)}`,
];

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function audit(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  return seriousViolations(page);
}

// Desktop and phone: the phone has its own layouts (the folded header, the run's call list, the
// Issues cards) that the desktop sweep never renders.
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

describe("axe-core: zero serious or critical violations", () => {
  for (const scheme of ["light", "dark"] as const) for (const viewport of VIEWPORTS) {
    it(`every page in ${scheme} mode, ${viewport.name} (${viewport.width}×${viewport.height})`, async () => {
      const browser = session.context().browser()!;
      context = await browser.newContext({ bypassCSP: true, colorScheme: scheme, viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      const found: Record<string, string[]> = {};
      for (const p of PAGES) {
        const v = await audit(page, session.server().at(p));
        if (v.length > 0) found[p] = v;
      }
      if (Object.keys(found).length > 0) console.log(`[a11y ${scheme} ${viewport.name}]`, JSON.stringify(found, null, 2));
      expect(found).toEqual({});
    }, 120_000);
  }
});
