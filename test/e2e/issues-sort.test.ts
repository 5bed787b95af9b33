import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";

// Three issues of one tool whose impact order differs from their order by failures.
const T = Date.now() - 20 * 60_000;
let n = 0;
const failure = (code: string, run: string, decision = "surfaced") => {
  const i = n++;
  return {
    type: "tool_call_span", id: `sort-${i}`, run_id: run, call_id: `sort-call-${i}`, tool: "sorter", tool_version: "1.0.0", attempt: 1,
    started_at: T + i * 1000, ended_at: T + i * 1000 + 10, outcome: "failed", code, decision,
  };
};

const session = useBrowserSession({ viewport: { width: 1400, height: 900 } });

describe("sorting the issues table in Chromium", () => {
  it("shows impact order by default and sorts by a clicked column, both ways, and back to impact", async () => {
    const page = session.page();
    const server = session.server();
    const records = [
      failure("x_unrecovered", "sort-run-x", "exhausted"),
      ...["sort-run-y1", "sort-run-y2", "sort-run-y3"].map((run) => failure("y_runs", run)),
      ...Array.from({ length: 6 }, () => failure("z_failures", "sort-run-z")),
    ];
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ resource: { service: "agent" }, records }),
    });
    expect(res.status).toBe(200);
    await page.goto(server.at("/issues?tool=sorter"));
    const table = page.locator('table[aria-label="Issues by impact"]');
    const order = () => table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.querySelector("a")?.textContent));
    const sortOf = (name: string) => table.locator("th", { has: page.getByRole("button", { name, exact: true }) }).getAttribute("aria-sort");
    await expect.poll(order).toEqual(["sorter / x_unrecovered", "sorter / y_runs", "sorter / z_failures"]);
    expect(await sortOf("#")).toBe("descending");

    await table.getByRole("button", { name: "Failures", exact: true }).click();
    await expect.poll(order).toEqual(["sorter / z_failures", "sorter / y_runs", "sorter / x_unrecovered"]);
    expect(page.url()).toContain("sort=failures&dir=desc");
    expect(await sortOf("Failures")).toBe("descending");
    expect(await sortOf("#")).toBeNull();

    await table.getByRole("button", { name: "Failures", exact: true }).click();
    await expect.poll(order).toEqual(["sorter / x_unrecovered", "sorter / y_runs", "sorter / z_failures"]);
    expect(await sortOf("Failures")).toBe("ascending");

    await table.getByRole("button", { name: "Runs", exact: true }).click();
    await expect.poll(order).toEqual(["sorter / y_runs", "sorter / x_unrecovered", "sorter / z_failures"]);

    await table.getByRole("button", { name: "#", exact: true }).click();
    await expect.poll(order).toEqual(["sorter / x_unrecovered", "sorter / y_runs", "sorter / z_failures"]);
    expect(await sortOf("#")).toBe("descending");
  });
});
