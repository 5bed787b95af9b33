import type { Page } from "playwright-core";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";

// The dashboard under its real Content-Security-Policy (nonce scripts, no 'unsafe-inline' for
// scripts): it must load with zero violations and hydrate, or the policy has broken the app.
// The session fails a test on a script error.
const session = useBrowserSession();
const { pageErrors } = session;
let server: ProjectServer;
let page: Page;
const violations: string[] = [];

const T = Date.now() - 30 * 60_000;
const span = (id: string, tool: string, code: string | null, outcome: string) => ({
  type: "tool_call_span", id, trace_id: "t", run_id: `run-${id}`, call_id: `c-${id}`, tool, attempt: 1,
  started_at: T, ended_at: T + 40, outcome, code, retryable: outcome === "failed",
});

beforeAll(async () => {
  server = session.server();
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      records: [
        span("a", "cancel_booking", "upstream_unavailable", "failed"),
        span("b", "cancel_booking", "booking_not_cancellable", "declined"),
        span("c", "lookup", "upstream_unavailable", "failed"),
        span("d", "search", null, "ok"),
      ],
    }),
  });
  expect(res.status).toBe(200);
});
beforeEach(async () => {
  page = session.page();
  violations.length = 0;
  // Violations reach the page as `securitypolicyviolation` events and Chromium logs each one to the
  // console; both are collected so that neither a script nor a style violation can pass unnoticed.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on("console", (m) => {
    if (/csp-violation|Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
});

describe("dashboard under the nonce CSP", () => {
  it("loads the Tools page with zero CSP violations, hydrates, and a client-side filter works", async () => {
    const response = await page.goto(server.at("/tools"));
    expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    const rows = () => page.locator("[data-testid=tools-table] tbody tr[data-tool]");
    await expect.poll(() => rows().count()).toBe(3);
    // Changing the select only narrows the table if React hydrated and runs the client-side query.
    await page.locator("select[name=code]").selectOption("booking_not_cancellable");
    await page.waitForURL(/code=booking_not_cancellable/);
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().innerText()).toMatch(/^cancel_booking/);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("renders the Overview charts (inline style attributes) with zero violations", async () => {
    await page.goto(server.at("/"));
    await page.waitForSelector(".recharts-surface");
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
