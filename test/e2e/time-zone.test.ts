import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { H, HOUR, WINDOW, seedFixture } from "../api/read-fixture";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";

// A browser in New York: the fixture's window opens 2026-01-10 00:00 UTC, which is 2026-01-09 19:00 EST.
const session = useBrowserSession({ seed: seedFixture, timezoneId: "America/New_York" });
let server: ProjectServer;
let page: Page;
const consoleErrors = session.consoleErrors;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

const LOCAL = "Local (America/New_York)";
const zoneRadio = (name: string) => page.getByRole("group", { name: "Times" }).getByRole("radio", { name, exact: true });
// The stored choice is read after hydration: wait for the switch to show it before reading times.
const settledOn = (name: string) => expect.poll(() => zoneRadio(name).isChecked()).toBe(true);
const trimmed = async (texts: Promise<string[]>) => (await texts).map((t) => t.replace(/\s+/g, " ").trim());
const releaseList = () => trimmed(page.locator(".release-list li").allInnerTexts());
// recharts 3 draws tick labels in their own layer, apart from the axis group.
const firstTick = async () => (await page.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").first().textContent())?.trim();
// Label → value of a <dl>, as runs.test.ts reads the run's facts.
const pairs = (scope: string) =>
  page.locator(scope).first().evaluate((dl) => {
    const out: Record<string, string> = {};
    const dts = [...dl.querySelectorAll("dt")];
    for (const dt of dts) out[dt.textContent ?? ""] = (dt.nextElementSibling as HTMLElement | null)?.innerText.replace(/\s+/g, " ").trim() ?? "";
    return out;
  });

/** The tooltip title of the first outcome chart's first bucket, from a hover over it. */
async function firstBucketTooltip(): Promise<string> {
  const grid = page.locator(".recharts-cartesian-grid").first();
  await grid.waitFor({ timeout: 15_000 });
  const box = (await grid.boundingBox())!;
  // Three hourly buckets: the first one's middle, approached in steps as a pointer would.
  await page.mouse.move(box.x + box.width / 6, box.y - 20);
  await page.mouse.move(box.x + box.width / 6, box.y + box.height / 2, { steps: 5 });
  const title = page.locator(".recharts-tooltip-wrapper .tooltip > div").first();
  await title.waitFor({ timeout: 15_000 });
  return (await title.innerText()).trim();
}

describe("local time zone with a UTC switch", () => {
  it("Overview: the browser's zone by default; the switch (by keyboard) turns axis, tooltip and markers to UTC, and a reload keeps it", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    await settledOn(LOCAL);
    await expect.poll(releaseList).toEqual(["r1 first seen 01-09 19:00", "r2 first seen 01-09 19:00"]);
    await expect.poll(firstTick).toBe("01-09 19:00");
    expect(await firstBucketTooltip()).toBe("01-09 19:00 EST");
    await expect.poll(() => page.locator(".release-mark").first().getAttribute("title")).toBe("release r1 first seen 01-09 19:00 EST");

    // A radio group: Tab reaches it, an arrow key moves the choice.
    await zoneRadio(LOCAL).focus();
    await page.keyboard.press("ArrowDown");
    await settledOn("UTC");
    await expect.poll(releaseList).toEqual(["r1 first seen 01-10 00:00", "r2 first seen 01-10 00:00"]);
    await expect.poll(firstTick).toBe("01-10 00:00");
    expect(await firstBucketTooltip()).toBe("01-10 00:00 UTC");

    await page.reload();
    await settledOn("UTC");
    expect(await zoneRadio(LOCAL).isChecked()).toBe(false);
    await expect.poll(releaseList).toEqual(["r1 first seen 01-10 00:00", "r2 first seen 01-10 00:00"]);
    await expect.poll(firstTick).toBe("01-10 00:00");
    expect(consoleErrors).toEqual([]);
  });

  it("the range picker's UTC box is the same switch: it rewrites the typed times and the header follows", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    await settledOn(LOCAL);
    await page.locator("select[name=range]").selectOption("pick");
    const picker = page.getByTestId("range-picker");
    expect(await picker.locator("input[name=from]").inputValue()).toBe("2026-01-09T19:00");
    expect(await picker.locator("input[name=to]").inputValue()).toBe("2026-01-09T22:00");
    expect(await picker.locator("input[name=utc]").isChecked()).toBe(false);
    // Typed on the New York clock: 20:00–21:00 EST is 01:00–02:00 UTC.
    await picker.locator("input[name=from]").fill("2026-01-09T20:00");
    await picker.locator("input[name=to]").fill("2026-01-09T21:00");
    await picker.locator("input[name=utc]").check();
    await settledOn("UTC");
    expect(await picker.locator("input[name=from]").inputValue()).toBe("2026-01-10T01:00");
    expect(await picker.locator("input[name=to]").inputValue()).toBe("2026-01-10T02:00");
    // And back from the header: the box follows.
    await zoneRadio(LOCAL).check();
    await expect.poll(() => picker.locator("input[name=utc]").isChecked()).toBe(false);
    expect(await picker.locator("input[name=from]").inputValue()).toBe("2026-01-09T20:00");
    await picker.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(new RegExp(`from=${H + HOUR}&to=${H + 2 * HOUR}`));
    expect(consoleErrors).toEqual([]);
  });

  it("runs list: the Started column and the date filters speak the chosen zone; the URL keeps epoch ms", async () => {
    await page.goto(server.at(`/runs?from=${H}&to=${H + 3 * HOUR}`));
    await settledOn(LOCAL);
    const table = page.getByTestId("runs-table");
    const headers = () => trimmed(table.locator("thead th").allInnerTexts());
    const started = () => table.locator('tr[data-run-id="run-1"] td').nth(4).innerText();
    await expect.poll(headers).toContain("Started (EST)");
    await expect.poll(started).toBe("2026-01-09 19:10:00");
    expect(await page.getByLabel("From (EST)").inputValue()).toBe("2026-01-09T19:00");
    expect(await page.getByLabel("To (EST)").inputValue()).toBe("2026-01-09T22:00");
    // Typed on the New York clock, kept in the URL as the instant.
    await page.getByLabel("To (EST)").fill("2026-01-09T20:00");
    await page.waitForURL(new RegExp(`to=${H + HOUR}(&|$)`));

    await zoneRadio("UTC").click();
    await expect.poll(headers).toContain("Started (UTC)");
    await expect.poll(started).toBe("2026-01-10 00:10:00");
    expect(await page.getByLabel("From (UTC)").inputValue()).toBe("2026-01-10T00:00");
    expect(await page.getByLabel("To (UTC)").inputValue()).toBe("2026-01-10T01:00");
    expect(new URL(page.url()).searchParams.get("from")).toBe(String(H));
    expect(consoleErrors).toEqual([]);
  });

  it("run page: the run's start and the attempt's start in local time, then in UTC", async () => {
    await page.goto(server.at("/runs/run-1"));
    await settledOn(LOCAL);
    const facts = () => pairs('dl:has(> div > dt)');
    await expect.poll(async () => (await facts())["Started (EST)"]).toBe("2026-01-09 19:10:00.000 EST");
    await page.locator('[data-span-id="span-0"]').click();
    const detail = () => pairs('[data-testid="attempt-details"] dl');
    await expect.poll(async () => (await detail())["Started"]).toBe("0 ms (2026-01-09 19:10:00.000 EST)");

    await zoneRadio("UTC").click();
    await expect.poll(async () => (await facts())["Started (UTC)"]).toBe("2026-01-10 00:10:00.000 UTC");
    await expect.poll(async () => (await detail())["Started"]).toBe("0 ms (2026-01-10 00:10:00.000 UTC)");
    expect(consoleErrors).toEqual([]);
  });

  it("code and tool pages: first and last seen in local time, then in UTC", async () => {
    await page.goto(server.at(`/codes/upstream_unavailable?${WINDOW}`));
    await settledOn(LOCAL);
    const seen = () => page.getByTestId("tile-seen").innerText();
    await expect.poll(seen).toContain("2026-01-09 19:10 EST → 2026-01-10 00:00 EST");
    await zoneRadio("UTC").click();
    await expect.poll(seen).toContain("2026-01-10 00:10 UTC → 2026-01-10 05:00 UTC");

    await page.goto(server.at(`/tools/cancel_booking?${WINDOW}`));
    await settledOn("UTC");
    const releases = () => trimmed(page.getByTestId("releases").locator("tbody tr").allInnerTexts());
    await expect.poll(releases).toEqual(["r2 2 2 2026-01-10 01:00 UTC 2026-01-10 01:00 UTC", "r1 3 2 2026-01-10 00:00 UTC 2026-01-10 00:00 UTC"]);
    await zoneRadio(LOCAL).click();
    await expect.poll(releases).toEqual(["r2 2 2 2026-01-09 20:00 EST 2026-01-09 20:00 EST", "r1 3 2 2026-01-09 19:00 EST 2026-01-09 19:00 EST"]);
    expect(consoleErrors).toEqual([]);
  });
});
