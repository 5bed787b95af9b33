import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { writeRows } from "@/db/ingest/write-rows";
import type { Store } from "@/db/client";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 60_000;
const span = (id: string, outcome: "ok" | "failed"): SpanRow => ({
  spanId: id, traceId: null, parentSpanId: null, runId: "run-1", callId: `call-${id}`, tool: "search", toolVersion: null,
  release: "1.0.0", service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: T, startedSubNs: null, endedAt: T + 10,
  outcome, code: outcome === "ok" ? null : "upstream_unavailable", errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null,
  decision: outcome === "ok" ? null : "surfaced", permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
});

// Three of four calls of `search` failed a minute ago.
async function seed(store: Store, project: string): Promise<void> {
  const batch = emptyRowBatch();
  [span("a", "failed"), span("b", "failed"), span("c", "failed"), span("d", "ok")].forEach((row, index) => batch.spans.push({ index, row }));
  await writeRows(store, project, batch);
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });
const AXE = path.join(process.cwd(), "node_modules/axe-core/axe.min.js");

const rowsOf = (page: ReturnType<typeof session.page>, table: string) =>
  page
    .locator(`table[aria-label="${table}"] > tbody > tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((c) => (c.firstChild?.textContent ?? c.textContent ?? "").trim())));

let axeContext: BrowserContext | undefined;
afterEach(async () => {
  await axeContext?.close();
  axeContext = undefined;
});

describe("the alert pages in Chromium", () => {
  it("creates a rule from the typed form with its preview, tests and deletes a receiver, edits, mutes and deletes the rule", async () => {
    const page = session.page();
    const server = session.server();
    await page.goto(server.at("/alerts"));
    await page.locator('table[aria-label="Alert rules"] tbody tr').first().waitFor();
    // Rules read as sentences, not JSON.
    expect((await rowsOf(page, "Alert rules")).map((r) => [r[0], r[1], r[3]])).toEqual([
      ["New error code for a tool", "a code first seen on any tool after the rule was created", "active"],
      ["Critical drift finding", "a drift finding of severity critical or above", "active"],
    ]);
    expect(await page.locator('nav a[href^="/alerts"]').count()).toBeGreaterThan(0);

    // A webhook receiver; its secret is shown once.
    const receiverForm = page.locator('form[aria-label="New receiver"]');
    await receiverForm.getByLabel("Receiver name").fill("ops");
    await receiverForm.getByLabel("Webhook URL").fill("https://hooks.example/faultline");
    await receiverForm.getByRole("button", { name: "Add receiver" }).click();
    await expect.poll(() => receiverForm.getByRole("status").textContent()).toMatch(/^Signing secret \(shown once\): [A-Za-z0-9_-]{32}$/);
    const receivers = page.locator('ul[aria-label="Receivers"] > li');
    await expect.poll(() => receivers.first().locator("span").first().textContent()).toBe("ops · json · https://hooks.example/faultline");

    // The Kind select switches the fields: a new code rule has no threshold, a failure rate one has it in percent.
    const form = page.locator('form[aria-label="New rule"]');
    await form.getByLabel("Kind").selectOption("new_code");
    expect(await form.getByLabel("Fires above (% of calls failed)").count()).toBe(0);
    await form.getByLabel("Kind").selectOption("failure_rate");
    await form.getByLabel("Name", { exact: true }).fill("search failing");
    await form.getByLabel("Tool (empty: every tool)").fill("search");
    await form.getByLabel("Window (minutes)").fill("10");
    await form.getByLabel("Fires above (% of calls failed)").fill("50");
    await form.getByLabel("Only with at least (calls in the window)").fill("4");
    // The preview replays the rule on the last week: the failures of a minute ago fire it once, still firing.
    await expect.poll(() => form.getByTestId("rule-preview-summary").textContent(), { timeout: 15_000 }).toBe(
      "Over the last 7 days it would have fired once (1 notification, checked every 5 min).",
    );
    expect(await form.locator('ul[aria-label="Would have fired"] li').textContent()).toMatch(/ · search · 75% of 4 calls failed in 10 min · still firing$/);
    // A threshold over 100 % is refused next to its field, and nothing is sent.
    await form.getByLabel("Fires above (% of calls failed)").fill("150");
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect.poll(() => form.locator("small[role=alert]").textContent()).toBe("between 0 and 100 (exclusive)");
    await form.getByLabel("Fires above (% of calls failed)").fill("50");
    // The new receiver is offered; the rule is kept from sending (the shared server's background job could deliver it).
    expect(await form.getByLabel("Receiver").locator("option").allTextContents()).toEqual(["none (history only)", "ops (json)"]);
    await form.getByRole("button", { name: "Create rule" }).click();
    const created = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing" });
    await created.waitFor();
    await expect.poll(() => created.locator("td").nth(1).textContent()).toBe("more than 50% of calls failed in 10 min (at least 4 calls), on `search`");
    await expect.poll(() => created.locator("td").nth(2).textContent()).toBe("none");
    // The form starts empty again.
    await expect.poll(() => page.locator('form[aria-label="New rule"]').getByLabel("Name", { exact: true }).inputValue()).toBe("");

    // Send a test: the answer says whether it arrived (this machine cannot reach hooks.example).
    await receivers.first().getByRole("button", { name: "Send a test to ops" }).click();
    await expect.poll(() => receivers.first().getByRole("status").textContent(), { timeout: 20_000 }).toMatch(/^Test not delivered: .+\.$/);

    // Edit the name, mute and unmute.
    await created.getByRole("button", { name: "Edit" }).click();
    const editForm = created.locator("form");
    await editForm.getByLabel("Name", { exact: true }).fill("search failing hard");
    expect(await editForm.getByLabel("Fires above (% of calls failed)").inputValue()).toBe("50");
    await editForm.getByRole("button", { name: "Save" }).click();
    const edited = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing hard" });
    await edited.waitFor();
    await edited.getByRole("button", { name: "Mute" }).click();
    await edited.locator("td", { hasText: /^muted$/ }).waitFor();
    await edited.getByRole("button", { name: "Unmute" }).click();
    await edited.locator("td", { hasText: /^active$/ }).waitFor();

    // Edit the receiver: renamed and pointed elsewhere.
    await receivers.first().getByRole("button", { name: "Edit ops" }).click();
    const receiverEdit = page.locator('form[aria-label="Edit receiver ops"]');
    await receiverEdit.getByLabel("Receiver name").fill("ops-2");
    await receiverEdit.getByLabel("Webhook URL").fill("https://hooks.example/other");
    await receiverEdit.getByRole("button", { name: "Save receiver" }).click();
    await expect.poll(() => receivers.first().locator("span").first().textContent()).toBe("ops-2 · json · https://hooks.example/other");

    // Delete the receiver: asked once more, then gone.
    await receivers.first().getByRole("button", { name: "Delete ops-2" }).click();
    await receivers.first().getByRole("button", { name: "Confirm delete of ops-2" }).click();
    await page.getByText("No receiver yet: notifications are kept in the history only.").waitFor();

    // The background job runs every minute on the shared server: evaluate once here, as it would.
    await evaluateAlerts(server.store, Date.now(), "");
    await page.getByRole("link", { name: "alert history" }).click();
    const history = () =>
      page.locator('table[aria-label="Notifications"] tbody tr', { hasText: "search failing hard" }).evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((c) => (c.textContent ?? "").trim()).slice(1)),
      );
    await expect.poll(history).toEqual([["search failing hard", "firing", "search / upstream_unavailable", "75% of 4 calls failed in 10 min", "issue open", "none", "unsent", "no receiver"]]);

    await page.goto(server.at("/alerts"));
    const row = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing hard" });
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Confirm delete" }).click();
    await row.waitFor({ state: "detached" });
    expect((await rowsOf(page, "Alert rules")).map((r) => r[0])).toEqual(["New error code for a tool", "Critical drift finding"]);
  });

  it("has no serious or critical axe violation on the alert pages, light and dark, with the form's preview and a receiver shown", async () => {
    const server = session.server();
    const found: Record<string, string[]> = {};
    for (const scheme of ["light", "dark"] as const) {
      // axe is injected as a script, which the nonce CSP refuses: this context bypasses CSP (only here).
      axeContext = await session.context().browser()!.newContext({ bypassCSP: true, colorScheme: scheme, viewport: { width: 1400, height: 1000 } });
      const page = await axeContext.newPage();
      for (const url of ["/alerts", "/alerts/history"]) {
        await page.goto(server.at(url));
        await page.waitForLoadState("networkidle");
        if (url === "/alerts") await page.getByTestId("rule-preview-summary").waitFor();
        await page.addScriptTag({ path: AXE });
        const result = (await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe.run(document, { resultTypes: ["violations"] }))) as {
          violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
        };
        const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(" ")}`));
        if (bad.length > 0) found[`${scheme} ${url}`] = bad;
      }
      await axeContext.close();
      axeContext = undefined;
    }
    expect(found).toEqual({});
  }, 120_000);
});
