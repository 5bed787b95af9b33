import { describe, expect, it } from "vitest";
import { seedRunsA } from "../api/runs-a-fixture";
import { useBrowserSession } from "../helpers/browser-session";

const session = useBrowserSession({ seed: seedRunsA, viewport: { width: 1400, height: 900 } });
const page = () => session.page();
const runIds = () => page().locator('[data-testid="runs-table"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run-id")));
async function openList(query = "") {
  await page().goto(session.server().at(`/runs${query}`));
  await page().locator('[data-testid="runs-table"]').waitFor();
}
async function expectIds(ids: string[]) {
  await expect.poll(runIds, { timeout: 10_000 }).toEqual(ids);
}

describe("runs list: sorting, presets, suggestions", () => {
  it("sorts by a column header and flips on a second click; the URL keeps the sort", async () => {
    await openList();
    await expectIds(["run-a5", "run-a4", "run-a3", "run-a2", "run-a1"]);
    await page().getByRole("button", { name: "Retries" }).click();
    await expectIds(["run-a2", "run-a4", "run-a5", "run-a3", "run-a1"]);
    expect(new URL(page().url()).searchParams.get("sort")).toBe("retries");
    expect(await page().locator('th[aria-sort="descending"]').innerText()).toContain("Retries");
    await page().getByRole("button", { name: "Retries" }).click();
    await expectIds(["run-a1", "run-a3", "run-a5", "run-a4", "run-a2"]);
    await page().getByRole("button", { name: "Duration" }).click();
    await expectIds(["run-a3", "run-a2", "run-a4", "run-a1", "run-a5"]);
    expect(await page().getByTestId("runs-results").innerText()).toContain("sorted by duration, longest first");
    // Focus stays on the header that was used.
    expect(await page().evaluate(() => document.activeElement?.textContent)).toBe("Duration");
  });

  it("applies the presets: most retried, slowest, failed runs", async () => {
    await openList();
    await page().locator('[data-preset="most-retried"]').click();
    await expectIds(["run-a2", "run-a4", "run-a5", "run-a3", "run-a1"]);
    expect(await page().locator('[data-preset="most-retried"]').getAttribute("aria-pressed")).toBe("true");
    await page().locator('[data-preset="slowest"]').click();
    await expectIds(["run-a3", "run-a2", "run-a4", "run-a1", "run-a5"]);
    await page().locator('[data-preset="failed"]').click();
    await expectIds(["run-a3", "run-a2"]);
    expect(new URL(page().url()).searchParams.get("state")).toBe("failed");
  });

  it("suggests filter values from the data, and a code filter matches by contains", async () => {
    await openList();
    await expect
      .poll(() => page().locator('[data-testid="suggestions-code"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)))
      .toEqual(["rate_limit_soft", "rate_limited", "upstream_unavailable"]);
    expect(await page().locator('[data-testid="suggestions-tool"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(["charge_card", "lookup", "search_flights"]);
    expect(await page().locator('[data-testid="suggestions-agent"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(["agent-a", "agent-b"]);
    await page().locator('input[name="code"]').fill("rate_limit");
    await page().locator('input[name="code"]').press("Enter");
    await expectIds(["run-a4", "run-a3"]);
  });

  it("does not apply the state select on each arrow key, only on Enter", async () => {
    await openList();
    const select = page().locator('select[name="state"]');
    await select.focus();
    await page().keyboard.press("ArrowDown");
    await page().keyboard.press("ArrowDown");
    await page().waitForTimeout(300);
    expect(new URL(page().url()).searchParams.get("state")).toBeNull();
    await page().keyboard.press("Enter");
    await expect.poll(() => new URL(page().url()).searchParams.get("state")).not.toBeNull();
  });

  it("labels the counters with their units: attempts not ok, never 'failed'", async () => {
    await openList();
    const headers = await page().locator('[data-testid="runs-table"] thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(["Run", "Agent", "Release", "Final state", "Started (UTC)", "Duration", "Tool calls", "Attempts", "Retries", "Attempts not ok", "Final errors", "Declined", "Refused", "Unanswered"]);
  });
});

describe("run page: the timeline fits the data", () => {
  it("fits a 4 s run with a deadline 10 min away: bars fill the width, the deadline is said off-screen", async () => {
    await page().goto(session.server().at("/runs/run-a2"));
    const bars = page().locator('[data-testid="attempt-bar"]');
    await bars.first().waitFor();
    const track = await page().locator('[data-testid="timeline-scroller"]').boundingBox();
    const boxes = await bars.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    expect(boxes).toHaveLength(4);
    const spanPx = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
    // The track is the scroller minus its 300 px label column.
    expect(spanPx / (track!.width - 300)).toBeGreaterThan(0.85);
    const note = page().getByTestId("offscreen-deadline");
    expect(await note.innerText()).toMatch(/^deadline \+10 min · off-screen, 9 min 56 s after the view →$/);
    await expect.poll(() => page().getByTestId("line-deadline").count()).toBe(0);
    // The legend lists the run-end line and the retry_after mark; the retry_after mark is drawn.
    expect(await page().getByTestId("timeline-legend").innerText()).toMatch(/run ended/);
    expect(await page().locator('[data-testid="retry-after-marker"]').count()).toBe(2);
    const marker = await page().locator('[data-testid="retry-after-marker"]').first().evaluate((e) => getComputedStyle(e).borderLeftWidth);
    expect(marker).toBe("3px");
  });

  it("zooms around the selected attempt with + and back with fit", async () => {
    await page().goto(session.server().at("/runs/run-a2"));
    const bars = page().locator('[data-testid="attempt-bar"]');
    await bars.first().waitFor();
    // Bars outside the view leave the DOM, so the selected one is found by its span id.
    const bar = page().locator('[data-span-id="run-a2-c1-a4"]');
    await bar.click();
    const centre = async () => {
      const r = (await bar.boundingBox())!;
      return r.x + r.width / 2;
    };
    const before = await centre();
    const widthBefore = (await bar.boundingBox())!.width;
    await page().keyboard.press("+");
    await expect.poll(async () => (await bar.boundingBox())!.width).toBeGreaterThan(widthBefore * 1.8);
    expect(Math.abs((await centre()) - before)).toBeLessThan(3);
    await page().keyboard.press("+");
    await expect.poll(async () => (await bar.boundingBox())!.width).toBeGreaterThan(widthBefore * 3.6);
    expect(Math.abs((await centre()) - before)).toBeLessThan(3);
    await page().getByRole("button", { name: "fit" }).click();
    await expect.poll(async () => Math.round((await bar.boundingBox())!.width)).toBe(Math.round(widthBefore));
    // Escape still clears the selection.
    await page().keyboard.press("Escape");
    await expect.poll(() => bar.getAttribute("aria-pressed")).toBe("false");
  });
});
