import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { connectBrowser } from "../helpers/browser";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { startServer, type TestServer } from "../helpers/server";
import type { Store } from "@/db/client";
import { createProject } from "@/db/keys";
import { WINDOW, seedFixture } from "../api/read-fixture";

// Bad links answer in the app (400 naming the parameter, 404 naming what is missing); a server that
// stops answering leaves the page and its numbers on screen with an error and a retry.
const session = useBrowserSession({ seed: seedFixture });
let server: ProjectServer;
let page: Page;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

const problem = async () => ({
  status: await page.getByTestId("page-problem").getAttribute("data-status"),
  message: await page.getByTestId("problem-message").innerText(),
});

describe("bad URLs answer in the app", () => {
  it("a bad time on the runs list is a 400 naming the parameter", async () => {
    await page.goto(server.at("/runs?from=garbage"));
    expect(await problem()).toEqual({ status: "400", message: "The parameter “from” = “garbage” is not valid: Invalid input: expected number, received NaN." });
    expect(await page.locator("nav[aria-label=Sections]").count()).toBe(1);
  });

  it("a bad range on the tools page is a 400 at once, not a spinner", async () => {
    const started = Date.now();
    await page.goto(server.at("/tools?range=abc"));
    expect(await problem()).toEqual({ status: "400", message: "The parameter “range” = “abc” is not valid: Invalid option: expected one of \"1h\"|\"24h\"|\"7d\"|\"30d\"|\"90d\"." });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a tool the project never saw is a 404 naming tool and project", async () => {
    const res = await page.goto(server.at("/tools/nope"));
    expect(res?.status()).toBe(404);
    expect(await problem()).toEqual({ status: "404", message: `There is no tool named “nope” in project “${server.project}”.` });
    expect(await page.title()).toBe("nope · Tools · Faultline");
  });

  it("an unknown project is a 404, not the first-run guide", async () => {
    const res = await page.goto(`${server.url}/?project=no-such-project`);
    expect(res?.status()).toBe(404);
    expect(await problem()).toEqual({ status: "404", message: "There is no project “no-such-project”." });
    expect(await page.getByTestId("first-run-guide").count()).toBe(0);
  });

  it("an unknown run and an unknown code say so too", async () => {
    await page.goto(server.at("/runs/run-404"));
    expect((await problem()).message).toBe(`There is no run “run-404” in project “${server.project}”.`);
    await page.goto(server.at("/codes/never_seen"));
    expect((await problem()).message).toBe(`There is no code “never_seen” in project “${server.project}”.`);
  });
});

describe("with the server stopped", () => {
  let own: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let p: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    // This test stops its server: it gets one of its own, not the run's shared one.
    const seed = async (s: Store) => {
      await createProject(s, "stopped", "stopped");
      await seedFixture(s, "stopped");
    };
    [own, browser] = await Promise.all([startServer({ dialect: inject("serverDialect"), seed }), connectBrowser(inject("browserWsEndpoint"))]);
  });
  afterAll(async () => {
    await browser?.close();
    await own?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    p = await context.newPage();
    p.on("pageerror", (e) => errors.push(e.message));
  });
  afterEach(async () => {
    await context.close();
  });

  it("a filter change keeps the page and its numbers, with an in-app error and a retry", async () => {
    await p.goto(`${own.url}/?project=stopped&${WINDOW}`);
    await expect.poll(() => p.getByTestId("tile-calls").innerText()).toContain("10");
    // The filter's choices come from the window's facets: wait for them before the server goes.
    await p.locator("select[name=outcome] option[value=declined]").waitFor({ state: "attached" });
    await own.stop();
    await p.locator("select[name=outcome]").selectOption("declined");
    await p.waitForURL(/outcome=declined/);
    const alert = p.getByTestId("query-error");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.innerText()).toMatch(/^The Faultline server could not be reached\. Showing the last data that loaded\.\s*Retry$/);
    // Still the app, still the numbers that loaded before the server went away.
    expect(p.url()).toMatch(/^http:\/\/127\.0\.0\.1/);
    expect(await p.getByTestId("tile-calls").innerText()).toContain("10");
    expect(await p.locator("h1").innerText()).toBe("Overview");
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => alert.innerText()).toContain("could not be reached");
    expect(errors).toEqual([]);
  });
});
