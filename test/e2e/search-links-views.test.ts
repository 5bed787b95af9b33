// Issue 32, items 6–8 in Chromium, on a server of its own (accounts end setup mode): full-text search
// from the header box and on the Runs list, the trace id of a run and an attempt with the project's
// "Open in Jaeger" link set by an admin, and saved views on the Runs list, kept across a reload and
// shared with another member. Exact texts; axe on each new piece of UI.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey, createProject } from "@/db/keys";
import { seriousViolations } from "../helpers/axe";
import { connectBrowser } from "../helpers/browser";
import { createAccount, type TestAccount } from "../helpers/session-accounts";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let browser: Browser;
let admin: TestAccount;
let member: TestAccount;
let viewer: TestAccount;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
const T = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ dialect: inject("serverDialect") }), connectBrowser(inject("browserWsEndpoint"))]);
  await createProject(server.store, "acme", "Acme agents");
  admin = await createAccount(server.store, { email: "admin@acme.test", memberships: [["acme", "admin"]] });
  member = await createAccount(server.store, { email: "member@acme.test", memberships: [["acme", "member"]] });
  viewer = await createAccount(server.store, { email: "viewer@acme.test", memberships: [["acme", "viewer"]] });
  const { key } = await createKey(server.store, "acme", "e2e");
  const failed = (id: string, run: string, call: string, attempt: number, at: number, message: string) => ({
    type: "tool_call_span", id, run_id: run, call_id: call, tool: "lookup", attempt, started_at: at, ended_at: at + 10, outcome: "failed",
    code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, decision: attempt < 2 ? "retried" : "surfaced", message,
  });
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      resource: { service: "support-agent", release: "1.0.0" },
      records: [
        failed("s1", "run-a", "c1", 1, T, "HTTP 503 from api.example.com (upstream unavailable)"),
        failed("s2", "run-a", "c1", 2, T + 100, "HTTP 503 from api.example.com (upstream unavailable)"),
        failed("s3", "run-b", "c2", 1, T + 200, "Rate limited: retry in 2 s"),
        failed("s4", "run-x", "c4", 1, T + 250, 'markup <img src=x onerror=alert(1)> <b>injected</b>'),
        { type: "tool_call_span", id: "s5", run_id: "run-c", call_id: "c3", tool: "book", attempt: 1, started_at: T + 300, ended_at: T + 310, outcome: "ok" },
      ],
    }),
  });
  expect(res.status).toBe(200);
  const s = (k: string, v: string) => ({ key: k, value: { stringValue: v } });
  const otlp = {
    resourceSpans: [{
      resource: { attributes: [s("service.name", "otel-agent")] },
      scopeSpans: [{
        scope: { name: "agent" },
        spans: [
          { traceId: TRACE, spanId: "00f067aa0ba90001", name: "invoke_agent planner", kind: 1, startTimeUnixNano: `${T + 400}000000`, endTimeUnixNano: `${T + 500}000000`, attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner")] },
          { traceId: TRACE, spanId: "00f067aa0ba90002", parentSpanId: "00f067aa0ba90001", name: "execute_tool book", kind: 1, startTimeUnixNano: `${T + 410}000000`, endTimeUnixNano: `${T + 420}000000`, attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "book"), s("gen_ai.tool.call.id", "call-otel")] },
        ],
      }],
    }],
  };
  expect((await fetch(`${server.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json", "x-faultline-key": key }, body: JSON.stringify(otlp) })).status).toBe(200);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A signed-in page; `goto` waits for hydration. CSP bypassed so that axe can be injected. */
async function signedIn(account: TestAccount): Promise<{ page: Page; goto: (path: string) => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, bypassCSP: true });
  contexts.push(context);
  await context.addCookies(account.cookies(server.url));
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("dialog", (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const goto = async (path: string) => {
    await page.goto(server.url + path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  };
  return { page, goto };
}

describe("full-text search", () => {
  it("searches the texts from the header box and shows matches marked, as text", async () => {
    const { page, goto } = await signedIn(member);
    await goto("/runs?project=acme");
    const input = page.getByTestId("search-input");
    await input.fill("unavailable");
    await expect.poll(() => page.getByTestId("search-hits").locator("li").allTextContents()).toEqual(["text search messages and told texts for “unavailable”"]);
    await input.press("Enter");
    await page.waitForURL(`${server.url}/search?project=acme&q=unavailable`);
    await expect.poll(() => page.getByTestId("text-search-status").textContent()).toBe("1 call in 1 run · show these runs in the Runs list");
    const hits = page.getByTestId("text-hits").locator("li");
    expect(await hits.getByTestId("snippet").allTextContents()).toEqual(["HTTP 503 from api.example.com (upstream unavailable)"]);
    expect(await hits.locator("mark").allTextContents()).toEqual(["unavailable"]);
    expect(await hits.getByRole("link").first().getAttribute("href")).toBe("/runs/run-a?project=acme&attempt=s2");
    expect(await seriousViolations(page)).toEqual([]);

    // Stored text that looks like markup stays text.
    await page.getByTestId("text-search-input").fill("injected");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(`${server.url}/search?project=acme&q=injected`);
    await expect.poll(() => hits.getByTestId("snippet").allTextContents()).toEqual(["markup <img src=x onerror=alert(1)> <b>injected</b>"]);
    expect(await hits.locator("mark").allTextContents()).toEqual(["injected"]);
    expect(await page.locator("[data-testid=text-hits] img, [data-testid=text-hits] b").count()).toBe(0);

    // A query without a word says why, from the API's answer.
    await page.getByTestId("text-search-input").fill('"()" *');
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => page.getByTestId("text-search-error").textContent()).toBe("Cannot search: invalid query: q: holds no letter or digit to search for");
  });

  it("filters the Runs list by error or told text", async () => {
    const { page, goto } = await signedIn(member);
    await goto("/runs?project=acme");
    const field = page.getByLabel("Error or told text");
    await field.fill("limited");
    await field.press("Enter");
    await page.waitForURL(/[?&]text=limited/);
    await expect.poll(() => page.locator('a[href^="/runs/"]').allTextContents()).toEqual(["run-b"]);
  });
});

describe("trace ids and the link to the tracing tool", () => {
  it("an admin links Jaeger; the run and the attempt open their trace there", async () => {
    const { page, goto } = await signedIn(admin);
    await goto("/settings/projects/acme");
    const form = page.locator('form[aria-label="Tracing tool link"]');
    await form.getByLabel("Tool").selectOption("jaeger");
    await form.getByLabel("Jaeger UI address").fill("https://jaeger.example.com/");
    await expect.poll(() => page.getByTestId("trace-link-preview").textContent()).toBe("Links will open https://jaeger.example.com/trace/{trace_id}?uiFind={span_id}");
    await form.getByRole("button", { name: "Save link" }).click();
    await expect.poll(() => page.getByTestId("trace-link-current").textContent()).toBe(
      "Run and attempt pages open traces in Jaeger: https://jaeger.example.com/trace/{trace_id}?uiFind={span_id}",
    );
    expect(await seriousViolations(page)).toEqual([]);

    await goto(`/runs/${TRACE}?project=acme&attempt=00f067aa0ba90002`);
    expect(await page.getByTestId("run-trace-id").textContent()).toBe(TRACE);
    const runLink = page.getByTestId("run-trace-link");
    await expect.poll(() => runLink.textContent()).toBe("Open in Jaeger");
    expect(await runLink.getAttribute("href")).toBe(`https://jaeger.example.com/trace/${TRACE}?uiFind=00f067aa0ba90001`);
    expect(await page.getByTestId("attempt-trace-id").textContent()).toBe(TRACE);
    expect(await page.getByTestId("attempt-trace-link").getAttribute("href")).toBe(`https://jaeger.example.com/trace/${TRACE}?uiFind=00f067aa0ba90002`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("a viewer sees the link but not the form; a run without traces says so", async () => {
    const { page, goto } = await signedIn(viewer);
    await goto("/settings/projects/acme");
    await expect.poll(() => page.getByTestId("trace-link-current").textContent()).toBe(
      "Run and attempt pages open traces in Jaeger: https://jaeger.example.com/trace/{trace_id}?uiFind={span_id}",
    );
    expect(await page.locator('form[aria-label="Tracing tool link"]').count()).toBe(0);
    await goto("/runs/run-b?project=acme");
    expect(await page.locator("dt", { hasText: /^Trace$/ }).locator("xpath=following-sibling::dd").textContent()).toBe("none: this source sends no trace ids");
  });
});

describe("saved views", () => {
  it("saves the Runs filters under a name, keeps them across a reload, applies them, and shares them with another member", async () => {
    const { page, goto } = await signedIn(member);
    await goto("/runs?project=acme&tool=lookup&state=failed");
    const views = page.getByTestId("saved-views");
    await expect.poll(() => views.locator("p").first().textContent()).toBe("None for this page yet.");
    await page.getByTestId("save-view").click();
    await page.getByTestId("view-name").fill("Failed lookups");
    await views.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => views.getByTestId("saved-view").locator("a").allTextContents()).toEqual(["Failed lookups"]);

    // Reload without filters, apply the view: the same filters, in the URL and the form.
    await goto("/runs?project=acme");
    await expect.poll(() => views.getByTestId("saved-view").locator("a").allTextContents()).toEqual(["Failed lookups"]);
    await views.getByRole("link", { name: "Failed lookups" }).click();
    await page.waitForURL(`${server.url}/runs?state=failed&tool=lookup&project=acme`);
    await expect.poll(() => page.locator('form[aria-label="Run filters"] input[name="tool"]').inputValue()).toBe("lookup");
    expect(await page.locator('form[aria-label="Run filters"] select[name="state"]').inputValue()).toBe("failed");
    expect(await views.getByRole("link", { name: "Failed lookups" }).getAttribute("aria-current")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);

    // Share it.
    await views.locator("summary", { hasText: "⋯" }).click();
    await views.getByRole("button", { name: "Share with the project" }).click();
    await expect.poll(() => views.getByTestId("saved-view").locator("a").allTextContents()).toEqual(["Failed lookups · shared"]);

    // Another member sees it, marked with who saved it, and cannot change it.
    const other = await signedIn(viewer);
    await other.goto("/runs?project=acme");
    const theirs = other.page.getByTestId("saved-views");
    await expect.poll(() => theirs.getByTestId("saved-view").locator("a").allTextContents()).toEqual(["Failed lookups · by member"]);
    expect(await theirs.locator("summary").count()).toBe(0);
    await theirs.getByRole("link", { name: "Failed lookups · by member" }).click();
    await other.page.waitForURL(`${server.url}/runs?state=failed&tool=lookup&project=acme`);
  });

  it("renames and deletes a view", async () => {
    const { page, goto } = await signedIn(member);
    await goto("/runs?project=acme");
    const views = page.getByTestId("saved-views");
    await views.locator("summary", { hasText: "⋯" }).click();
    await views.getByRole("button", { name: "Rename" }).click();
    await page.getByTestId("view-rename-input").fill("Lookups that failed");
    await views.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => views.getByTestId("saved-view").locator("a").allTextContents()).toEqual(["Lookups that failed · shared"]);
    await views.locator("summary", { hasText: "⋯" }).click();
    await views.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => views.locator("p").first().textContent()).toBe("None for this page yet.");
  });
});
