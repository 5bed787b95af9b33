// One Chromium for the whole e2e run: tests connect to it and open a fresh context per test
// (test/helpers/browser-session.ts), instead of launching a browser per file.
import type { TestProject } from "vitest/node";
import { launchBrowserServer } from "./helpers/browser";

declare module "vitest" {
  export interface ProvidedContext {
    /** Playwright endpoint of the shared Chromium. */
    browserWsEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const browser = await launchBrowserServer();
  project.provide("browserWsEndpoint", browser.wsEndpoint());
  return () => browser.close();
}
