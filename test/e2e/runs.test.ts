import { describe, expect, it } from "vitest";
import type { RunRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { H, XSS_TOLD, seedRuns } from "../api/runs-fixture";
import { useBrowserSession } from "../helpers/browser-session";

// The session fails a test whose page had a script error or a dialog (the told text holds an onerror).
const session = useBrowserSession({ seed: seedRuns, viewport: { width: 1600, height: 1000 } });
/** The query string of an unfiltered list of this file's project. */
const projectQs = () => `?project=${session.server().project}`;

const texts = (selector: string) => session.page().locator(selector).allInnerTexts();
/** Opens the run with every decision and waits for its lanes (each test starts from its own page). */
async function openEveryDecisionRun() {
  await session.page().goto(session.server().at("/runs/run-every-decision"));
  await session.page().locator('[data-testid="call-lane"]').first().waitFor();
}
// Focus follows the selection one frame after it renders.
const focused = () => session.page().evaluate(() => document.activeElement?.getAttribute("data-span-id"));

describe("run page: the retry timeline", () => {
  it("draws one lane per call grouped by tool, bars labelled by outcome, every final decision in words", async () => {
    await openEveryDecisionRun();
    expect(await session.page().locator('[data-testid="tool-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-tool")))).toEqual([
      "search_flights",
      "cancel_booking",
      "lookup_customer",
      "charge_card",
      "fetch_weather",
      "send_email",
    ]);
    const lanes = await session.page().locator('[data-testid="call-lane"]').evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute("data-call-id"),
        e.querySelector('[data-testid="final-decision"]')?.textContent,
        // A narrow bar carries its label beside it (the next sibling) instead of inside.
        [...e.querySelectorAll('[data-testid="attempt-bar"]')].map((b) => b.textContent || b.nextElementSibling?.textContent),
      ]),
    );
    expect(lanes).toEqual([
      ["c1", "succeeded after 1 retry", ["#1 failed", "#2 ok"]],
      ["c2", "ok", ["#1 ok"]],
      ["c8", "budget capped", ["#1 failed", "#2 failed", "#3 failed", "#4 failed"]],
      ["c3", "delivered as a refusal", ["#1 declined"]],
      ["c4", "surfaced to the model", ["#1 refused"]],
      ["c10", "succeeded after 2 retries", ["#1 failed", "⚠ #3 failed", "⚠ #? ok"]],
      ["c5", "failed the run", ["#1 failed"]],
      ["c6", "failed closed", ["#1 failed"]],
      ["c7", "attempts exhausted", ["#1 timed out", "#2 timed out", "#3 timed out"]],
      ["c9", "cancelled", ["#1 cancelled"]],
    ]);
    expect(await texts('[data-testid="budget"]')).toEqual([
      "search_flights 4 / 4",
      "cancel_booking 0 / 4",
      "lookup_customer 2 / 4",
      "charge_card 0 / 4",
      "fetch_weather 2 / 4",
      "send_email 0 / 4",
    ]);
    expect(await session.page().locator('[data-testid="line-deadline"]').innerText()).toBe("deadline +22 s");
    expect(await session.page().locator('[data-testid="retry-after-marker"]').count()).toBe(1);
    expect(await session.page().locator('[data-testid="incomplete-note"]').innerText()).toContain("Incomplete data: 2 attempts in 1 call");
  });

  it("selects an attempt by click and shows its details, the told text as text", async () => {
    await openEveryDecisionRun();
    await session.page().locator('[data-span-id="c1-a1"]').click();
    const details = session.page().locator('[data-testid="attempt-details"]');
    // The details' script may still be arriving on a busy machine: the panel says so meanwhile.
    await expect.poll(() => details.locator("h2").first().textContent()).toBe("search_flights · c1 · attempt 1");
    expect(await session.page().locator('[data-testid="detail-retry-after"]').innerText()).toBe("1 s");
    expect(await session.page().locator('[data-testid="detail-waited"]').innerText()).toBe("1.2 s");
    expect(session.page().url()).toContain("attempt=c1-a1");
    // The ids people paste into logs and tickets copy with one click.
    await session.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: session.server().url });
    await details.getByRole("button", { name: "Copy call id", exact: true }).click();
    await expect.poll(() => session.page().evaluate(() => navigator.clipboard.readText())).toBe("c1");
    expect(await session.page().getByTitle("Copy the run id run-every-decision").innerText()).toBe("Copy");
    await session.page().getByTitle("Copy the run id run-every-decision").click();
    await expect.poll(() => session.page().evaluate(() => navigator.clipboard.readText())).toBe("run-every-decision");

    await session.page().locator('[data-span-id="c4-a1"]').click();
    expect(await session.page().locator('[data-testid="detail-outcome"]').innerText()).toBe("refused");
    expect(await session.page().locator('[data-testid="told"]').innerText()).toBe(XSS_TOLD);
    expect(await session.page().locator('[data-testid="attempt-details"] img').count()).toBe(0);
    await session.page().screenshot({ path: "test-results/runs-timeline.png", fullPage: true });
  });

  it("moves through failing attempts with j and k in time order, focusing each", async () => {
    await openEveryDecisionRun();
    await session.page().locator('[data-span-id="c1-a1"]').click();
    await session.page().keyboard.press("j");
    await session.page().keyboard.press("j");
    await expect.poll(focused).toBe("c4-a1");
    await session.page().keyboard.press("j");
    await expect.poll(focused).toBe("c5-a1");
    await session.page().keyboard.press("k");
    await expect.poll(focused).toBe("c4-a1");
    await expect.poll(() => session.page().locator('[data-testid="attempt-details"] h2').first().textContent()).toBe("lookup_customer · c4 · attempt 1");
  });

  it("zooms in on the time axis and back out", async () => {
    await openEveryDecisionRun();
    const bar = session.page().locator('[data-span-id="c9-a1"]');
    const widthBefore = (await bar.boundingBox())!.width;
    await session.page().getByRole("button", { name: "Zoom in" }).click();
    const widthAfter = (await bar.boundingBox())!.width;
    expect(Math.round((widthAfter / widthBefore) * 10) / 10).toBe(2);
    await session.page().keyboard.press("0");
    expect(Math.round((await bar.boundingBox())!.width)).toBe(Math.round(widthBefore));
  });

  it("opens with the attempt a link points at (?attempt=) selected", async () => {
    await session.page().goto(session.server().at(`/runs/run-every-decision?attempt=c7-a2`));
    await session.page().locator('[data-testid="call-lane"]').first().waitFor();
    await expect.poll(() => session.page().locator('[data-testid="attempt-details"] h2').first().textContent()).toBe("fetch_weather · c7 · attempt 2");
    expect(await session.page().locator('[data-testid="detail-outcome"]').innerText()).toBe("timed out");
    expect(await session.page().locator('[data-testid="detail-waited"]').innerText()).toBe("600 ms");
  });

  it("shows a run whose record never arrived as such", async () => {
    await session.page().goto(session.server().at(`/runs/run-orphan`));
    await session.page().locator('[data-testid="call-lane"]').first().waitFor();
    expect((await session.page().locator("h1").innerText()).replace(/\s+/g, " ")).toBe("Run run-orphan run record missing");
    expect(await texts('[data-testid="budget"]')).toEqual(["search_flights 1 / 12 (assumed)"]);
  });
});

describe("runs list", () => {
  it("lists runs and changes URL and list when filters change", async () => {
    await session.page().goto(session.server().at(`/runs`));
    const rowIds = () => session.page().locator('[data-testid="runs-table"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run-id")));
    expect(await rowIds()).toEqual(["run-clean", "run-orphan", "run-every-decision"]);
    expect(await session.page().locator('tr[data-run-id="run-orphan"] td').nth(3).innerText()).toBe("run record missing");

    await session.page().getByLabel("Final state").selectOption("failed");
    await session.page().waitForURL(/state=failed/);
    await expect.poll(rowIds).toEqual(["run-every-decision"]);

    await session.page().getByLabel("Final state").selectOption("");
    await session.page().waitForURL((u) => u.search === projectQs());
    await session.page().getByLabel("Tool", { exact: true }).fill("search_flights");
    await session.page().getByLabel("Tool", { exact: true }).press("Enter");
    await session.page().waitForURL((u) => u.search === `${projectQs()}&tool=search_flights`);
    await expect.poll(rowIds).toEqual(["run-orphan", "run-every-decision"]);

    await session.page().getByLabel("has tool errors").click();
    await session.page().waitForURL(/hasErrors=1/);
    expect(await session.page().getByLabel("has tool errors").isChecked()).toBe(true);
    await session.page().screenshot({ path: "test-results/runs-list.png", fullPage: true });
    await session.page().locator(`a[href="/runs/run-orphan${projectQs()}"]`).click();
    await session.page().waitForURL((u) => u.pathname + u.search === `/runs/run-orphan${projectQs()}`);
  });

  it("lands pre-filtered from another view's link", async () => {
    await session.page().goto(session.server().at(`/runs?code=card_declined`));
    expect(await session.page().locator('[data-testid="runs-table"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run-id")))).toEqual(["run-every-decision"]);
    expect(await session.page().getByLabel("Code", { exact: true }).inputValue()).toBe("card_declined");
  });

  it("shows a run known only from its end with agent, start and duration unknown, not as a missing record", async () => {
    const end: RunRow = {
      recordId: "ev-end", runId: "run-end-only", agent: null, release: null, service: null, environment: null, sdkName: null, sdkVersion: null,
      startedAt: null, endedAt: H + 200_000, state: "cancelled", deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "adk_published",
    };
    // In a project of its own, so the other tests' lists stay as seeded whatever the order.
    const project = `${session.server().project}-end-only`;
    await createProject(session.server().store, project, "A run known only from its end");
    await writeRows(session.server().store, project, { runs: [{ index: 0, row: end }], spans: [], toolErrors: [] });
    await session.page().goto(`${session.server().url}/runs?project=${project}`);
    const cells = session.page().locator('tr[data-run-id="run-end-only"] td');
    await cells.first().waitFor();
    expect((await cells.allInnerTexts()).slice(0, 6)).toEqual(["run-end-only", "unknown", "unknown", "cancelled", "unknown", "unknown"]);

    await session.page().goto(`${session.server().url}/runs/run-end-only?project=${project}`);
    await session.page().locator('[data-testid="start-unknown-note"]').waitFor();
    expect((await session.page().locator("h1").innerText()).replace(/\s+/g, " ")).toBe("Run run-end-only cancelled");
    const facts = await session.page().locator("dl > div").evaluateAll((els) => els.map((e) => `${e.querySelector("dt")?.textContent}: ${e.querySelector("dd")?.textContent}`));
    expect(facts.slice(0, 7)).toEqual(["Run id: run-end-only Copy", "Agent: unknown", "Release: unknown", "Environment: unknown", "SDK: unknown", "Started (UTC): unknown", "Duration: unknown"]);
  });
});
