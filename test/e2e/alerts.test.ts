import { describe, expect, it } from "vitest";
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

const rowsOf = (page: ReturnType<typeof session.page>, table: string) =>
  page
    .locator(`table[aria-label="${table}"] > tbody > tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((c) => (c.firstChild?.textContent ?? c.textContent ?? "").trim())));

describe("the alert pages in Chromium", () => {
  it("lists the default rules, creates, edits, mutes and deletes a rule, and shows its notification in the history", async () => {
    const page = session.page();
    const server = session.server();
    await page.goto(server.at("/alerts"));
    await page.locator('table[aria-label="Alert rules"] tbody tr').first().waitFor();
    expect((await rowsOf(page, "Alert rules")).map((r) => [r[0], r[3]])).toEqual([
      ["New error code for a tool", "active"],
      ["Critical drift finding", "active"],
    ]);
    // The sidebar links here.
    expect(await page.locator('nav a[href^="/alerts"]').count()).toBeGreaterThan(0);

    // A receiver (no delivery happens here: the rule below sends nowhere); its secret is shown once.
    const receiverForm = page.locator('form[aria-label="New receiver"]');
    await receiverForm.getByLabel("Receiver name").fill("ops");
    await receiverForm.getByLabel("Webhook URL").fill("https://hooks.example/faultline");
    await receiverForm.getByRole("button", { name: "Add receiver" }).click();
    await expect.poll(() => receiverForm.getByRole("status").textContent()).toMatch(/^Signing secret \(shown once\): [A-Za-z0-9_-]{32}$/);
    await expect.poll(() => page.locator('ul[aria-label="Receivers"] li').allTextContents()).toEqual(["ops https://hooks.example/faultline (json)"]);

    // Create: a failure-rate rule for `search` above 50% with at least 4 calls.
    const form = page.locator('section[aria-labelledby="new-rule-title"] form');
    await form.getByLabel("Name").fill("search failing");
    await form.locator("select").first().selectOption("failure_rate");
    await form.getByLabel("Params (JSON)").fill(JSON.stringify({ kind: "failure_rate", tool: "search", windowMinutes: 10, threshold: 0.5, minCalls: 4 }));
    await form.getByRole("button", { name: "Create rule" }).click();
    const created = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing" });
    await created.waitFor();
    await expect.poll(() => created.locator("td").nth(1).textContent()).toBe('{"kind":"failure_rate","tool":"search","windowMinutes":10,"threshold":0.5,"minCalls":4}');

    // A params error is shown, not sent.
    await form.getByLabel("Name").fill("bad");
    await form.getByLabel("Params (JSON)").fill('{"kind":"failure_rate","windowMinutes":10,"threshold":2,"minCalls":4}');
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toContain("threshold");

    // Edit the name, mute and unmute.
    await created.getByRole("button", { name: "Edit" }).click();
    const editForm = created.locator("form");
    await editForm.getByLabel("Name").fill("search failing hard");
    await editForm.getByRole("button", { name: "Save" }).click();
    const edited = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing hard" });
    await edited.waitFor();
    await edited.getByRole("button", { name: "Mute" }).click();
    await edited.locator("td", { hasText: /^muted$/ }).waitFor();
    await edited.getByRole("button", { name: "Unmute" }).click();
    await edited.locator("td", { hasText: /^active$/ }).waitFor();

    // The background job runs every minute on the shared server: evaluate once here, as it would.
    await evaluateAlerts(server.store, Date.now(), "");
    await page.getByRole("link", { name: "alert history" }).click();
    const history = () =>
      page.locator('table[aria-label="Notifications"] tbody tr', { hasText: "search failing hard" }).evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((c) => (c.textContent ?? "").trim()).slice(1)),
      );
    await expect.poll(history).toEqual([["search failing hard", "firing", "search", "75% of 4 calls failed in 10 min", "none", "unsent", "no receiver"]]);

    // Delete asks once more, then the rule goes.
    await page.goto(server.at("/alerts"));
    const row = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "search failing hard" });
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Confirm delete" }).click();
    await row.waitFor({ state: "detached" });
    expect((await rowsOf(page, "Alert rules")).map((r) => r[0])).toEqual(["New error code for a tool", "Critical drift finding"]);
  });
});
