import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from "vitest";
import type { Store } from "@/db/client";
import { connectBrowser } from "./browser";
import { openProject, type ProjectServer } from "./project";

/**
 * For a browser test file: its own seeded project on the shared server and a connection to the
 * run's shared Chromium. Each test gets a fresh context and page (no cookies, history or storage
 * from the test before), and fails if its page had a script error or a dialog: an alert means
 * client text ran as HTML.
 */
export function useBrowserSession(options: { seed?: (store: Store, project: string) => Promise<void> | void; viewport?: { width: number; height: number }; timezoneId?: string } = {}) {
  let server: ProjectServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];
  // Console errors (a failed request, a React warning): tests that promise a clean page assert on them.
  const consoleErrors: string[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([openProject({ seed: options.seed }), connectBrowser(inject("browserWsEndpoint"))]);
    // The seed went straight into the database: let its drift fold finish so badges and findings show.
    await server.driftFolded();
    mkdirSync("test-results", { recursive: true });
  });
  beforeEach(async () => {
    pageErrors.length = 0;
    consoleErrors.length = 0;
    // Unset, the browser keeps the machine's zone (UTC on CI); a test of local time names its own.
    context = await browser!.newContext({ viewport: options.viewport ?? { width: 1400, height: 1000 }, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) });
    page = await context.newPage();
    // An HTML page is ready for input once React has attached its handlers (app/providers.tsx marks
    // <html>); a test that typed or chose before that would race hydration on a busy machine.
    const goto = page.goto.bind(page);
    const ready = page;
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (response?.headers()["content-type"]?.startsWith("text/html")) await ready.locator("html[data-hydrated]").waitFor({ state: "attached" });
      return response;
    };
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("dialog", (d) => {
      pageErrors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
  });
  afterEach(async () => {
    await context?.close();
    expect(pageErrors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return { server: () => server!, page: () => page!, context: () => context!, pageErrors, consoleErrors };
}
