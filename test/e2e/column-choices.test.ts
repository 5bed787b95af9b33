// Issue 32, item 2 in Chromium, on a server of its own (accounts end setup mode): a person hides a
// column of the Runs list; a fresh browser (empty localStorage) signed in as them shows the same
// columns; another person's browser does not. The choice is read from the server, not this browser.
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey, createProject } from "@/db/keys";
import { connectBrowser } from "../helpers/browser";
import { createAccount, type TestAccount } from "../helpers/session-accounts";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let browser: Browser;
let member: TestAccount;
let viewer: TestAccount;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
const T = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ dialect: inject("serverDialect") }), connectBrowser(inject("browserWsEndpoint"))]);
  await createProject(server.store, "acme", "Acme agents");
  member = await createAccount(server.store, { email: "member@acme.test", memberships: [["acme", "member"]] });
  viewer = await createAccount(server.store, { email: "viewer@acme.test", memberships: [["acme", "viewer"]] });
  const { key } = await createKey(server.store, "acme", "e2e");
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      resource: { service: "support-agent", release: "1.0.0" },
      records: [
        { type: "run", id: "r1", run_id: "run-a", agent: "support-agent", started_at: T, ended_at: T + 500, state: "completed" },
        { type: "tool_call_span", id: "s1", run_id: "run-a", call_id: "c1", tool: "lookup", attempt: 1, started_at: T + 10, ended_at: T + 20, outcome: "ok" },
      ],
    }),
  });
  expect(res.status).toBe(200);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh browser context (its own, empty localStorage) signed in as `account`, on the Runs list, hydrated. */
async function runsAs(account: TestAccount): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  await context.addCookies(account.cookies(server.url));
  // What this browser held before any of the app's code ran (the app copies the server's choice in soon after).
  await context.addInitScript(() => {
    Object.assign(window, { columnKeysAtStart: Object.keys(localStorage).filter((k) => k.startsWith("faultline.columns")) });
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}/runs?project=acme`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return page;
}

const headers = (page: Page) =>
  page.getByTestId("runs-table").evaluate((t) => [...t.querySelectorAll("thead th")].filter((th) => getComputedStyle(th).display !== "none").map((th) => (th.textContent ?? "").trim().replace(/ \(.*\)$/, "")));

const RUNS_1440 = ["Run", "Agent", "Final state", "Started", "Duration", "Tool calls", "Attempts", "Retries", "Attempts not ok", "Final errors", "Declined", "Refused", "Unanswered"];

describe("column choices follow the person", () => {
  it("a column hidden in one browser stays hidden in a fresh one signed in as the same person, not for another", async () => {
    const first = await runsAs(member);
    await expect.poll(() => headers(first)).toEqual(RUNS_1440);
    const chooser = first.getByTestId("columns-runs");
    await chooser.locator("summary").click();
    const saved = first.waitForResponse((r) => r.url().endsWith("/api/v1/column-choices/runs") && r.request().method() === "PUT");
    await chooser.getByLabel("Retries", { exact: true }).uncheck();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => headers(first)).toEqual(RUNS_1440.filter((h) => h !== "Retries"));
    expect(await chooser.locator("summary").innerText()).toBe("Columns · 2 hidden");

    const second = await runsAs(member);
    expect(await second.evaluate(() => (window as unknown as { columnKeysAtStart: string[] }).columnKeysAtStart)).toEqual([]);
    await expect.poll(() => headers(second)).toEqual(RUNS_1440.filter((h) => h !== "Retries"));
    await expect.poll(() => second.getByTestId("columns-runs").locator("summary").innerText()).toBe("Columns · 2 hidden");
    // Now cached in this browser too, for the next first paint.
    await expect.poll(() => second.evaluate((id) => localStorage.getItem(`faultline.columns.v1.${id}.runs`), member.userId)).toBe('{"retries":"hidden"}');

    const other = await runsAs(viewer);
    await expect.poll(() => other.getByTestId("columns-runs").locator("summary").innerText()).toBe("Columns · 1 hidden");
    expect(await headers(other)).toEqual(RUNS_1440);
  });

  it("a read of the server's choices that lands after a change does not undo it, and saves of one table go out in order", async () => {
    const ops = await createAccount(server.store, { email: "ops@acme.test", memberships: [["acme", "member"]] });
    // The server already holds an older choice for Runs (Agent hidden) and one for Codes.
    for (const [table, columns] of [["runs", { agent: "hidden" }], ["codes", { told: "hidden" }]] as const) {
      const res = await fetch(`${server.url}/api/v1/column-choices/${table}`, { method: "PUT", headers: { ...ops.headers(), "content-type": "application/json" }, body: JSON.stringify({ columns }) });
      expect(res.status).toBe(200);
    }
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    await context.addCookies(ops.cookies(server.url));
    const page = await context.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    const events: string[] = [];
    // The read is answered with what the server held when it was asked, but only once released.
    let releaseRead!: () => void;
    const readReleased = new Promise<void>((resolve) => (releaseRead = resolve));
    const readHeld = new Promise<Route>((resolve) => {
      void page.route("**/api/v1/column-choices", async (route) => {
        const answer = await route.fetch();
        resolve(route);
        await readReleased;
        await route.fulfill({ response: answer });
      });
    });
    // The first save is held until released; every save sent is recorded with its body.
    let releaseFirstSave!: () => void;
    const firstSaveReleased = new Promise<void>((resolve) => (releaseFirstSave = resolve));
    await page.route("**/api/v1/column-choices/runs", async (route) => {
      events.push(`sent ${route.request().postData() ?? ""}`);
      if (events.length === 1) await firstSaveReleased;
      await route.continue();
    });
    await page.goto(`${server.url}/runs?project=acme`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await readHeld;
    await expect.poll(() => headers(page)).toEqual(RUNS_1440);

    const chooser = page.getByTestId("columns-runs");
    await chooser.locator("summary").click();
    await chooser.getByLabel("Retries", { exact: true }).uncheck();
    await expect.poll(() => events).toEqual(['sent {"columns":{"retries":"hidden"}}']);
    await chooser.getByLabel("Attempts", { exact: true }).uncheck();
    await expect.poll(() => headers(page)).toEqual(RUNS_1440.filter((h) => h !== "Retries" && h !== "Attempts"));
    events.push("first released");
    releaseFirstSave();
    await expect.poll(() => events).toEqual(['sent {"columns":{"retries":"hidden"}}', "first released", 'sent {"columns":{"retries":"hidden","attempts":"hidden"}}']);

    // The older read lands now: it fills the table this window did not touch, and leaves Runs alone.
    releaseRead();
    await expect.poll(() => page.evaluate((id) => localStorage.getItem(`faultline.columns.v1.${id}.codes`), ops.userId)).toBe('{"told":"hidden"}');
    expect(await page.evaluate((id) => localStorage.getItem(`faultline.columns.v1.${id}.runs`), ops.userId)).toBe('{"retries":"hidden","attempts":"hidden"}');
    expect(await headers(page)).toEqual(RUNS_1440.filter((h) => h !== "Retries" && h !== "Attempts"));
    await expect
      .poll(async () => (await (await fetch(`${server.url}/api/v1/column-choices`, { headers: ops.headers() })).json()) as unknown)
      .toEqual({ choices: { codes: { told: "hidden" }, runs: { attempts: "hidden", retries: "hidden" } } });
    expect(await chooser.locator("summary").innerText()).toBe("Columns · 3 hidden");
  });
});
