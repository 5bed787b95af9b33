import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { Store } from "@/db/client";
import { launchBrowser } from "./browser";
import { startServer, type TestServer } from "./server";

/**
 * For a browser test file: a seeded server and Chromium started before its tests and stopped after,
 * one page whose script errors and dialogs (an alert means client text ran as HTML) are collected.
 */
export function useBrowserSession(options: { seed: (store: Store) => void; viewport?: { width: number; height: number } }) {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ seed: options.seed }), launchBrowser()]);
    page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 1000 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("dialog", (d) => {
      pageErrors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    mkdirSync("test-results", { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return { server: () => server!, page: () => page!, pageErrors };
}
