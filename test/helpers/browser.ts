import { chromium, type Browser, type BrowserServer, type LaunchOptions } from "playwright-core";

/** Debian's Chromium, launched the way this offline machine needs. */
const LAUNCH: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

/** A Chromium owned by the caller (one process). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/** A Chromium that test workers connect to with `connectBrowser` (started once per run). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH);
}

/** A connection to the run's shared Chromium; closing it leaves the browser running. */
export function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}
