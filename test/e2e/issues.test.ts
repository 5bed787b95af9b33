import { describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 10 * 60_000;
let n = 0;
const failure = (version: string) => {
  const i = n++;
  return {
    type: "tool_call_span", id: `e2e-${i}`, run_id: `run-${i}`, call_id: `call-${i}`, tool: "search", tool_version: version, attempt: 1,
    started_at: T + i * 1000, ended_at: T + i * 1000 + 10, outcome: "failed", code: "upstream_unavailable", decision: "surfaced",
  };
};

const session = useBrowserSession({ viewport: { width: 1400, height: 900 } });

async function send(records: unknown[]): Promise<void> {
  const server = session.server();
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "agent" }, records }),
  });
  expect(res.status).toBe(200);
}

describe("the issues page in Chromium", () => {
  it("resolves an issue in the next release, keeps it resolved in that release, and shows it regressed after failures from a later one", async () => {
    const page = session.page();
    const server = session.server();
    await send([failure("1.0.0"), failure("1.0.0")]);
    await page.goto(server.at("/issues"));
    const row = page.locator('table[aria-label="Issues by impact"] tbody tr', { hasText: "search / upstream_unavailable" });
    await row.waitFor();
    expect(await row.getByTestId("issue-state").textContent()).toBe("open");
    await expect.poll(() => page.getByTestId("issues-count").textContent()).toBe(" 1");

    await row.getByRole("link", { name: "search / upstream_unavailable" }).click();
    await page.getByRole("button", { name: "Resolve in next release" }).click();
    await expect.poll(() => page.getByTestId("issue-detail-state").textContent()).toBe("resolved in the release after 1.0.0");
    await expect.poll(() => row.getByTestId("issue-state").textContent()).toBe("resolved in the release after 1.0.0");
    await expect.poll(() => page.getByTestId("issues-count").count()).toBe(0);

    // A failure in the release it was resolved after changes nothing; one from 1.1.0 regresses it.
    await send([failure("1.0.0")]);
    await page.reload();
    await expect.poll(() => page.getByTestId("issue-detail-state").textContent()).toBe("resolved in the release after 1.0.0");
    await send([failure("1.1.0")]);
    await expect.poll(() => row.getByTestId("issue-state").textContent(), { timeout: 20_000 }).toBe("regressed");
    await expect.poll(() => page.getByTestId("issue-detail-state").textContent(), { timeout: 20_000 }).toBe("regressed");
    await expect.poll(() => page.locator('ol[aria-label="History"] li').allTextContents(), { timeout: 20_000 }).toEqual([
      expect.stringMatching(/ UTC, ingest: first failed in 1\.0\.0$/),
      expect.stringMatching(/ UTC, .+: resolved in the release after 1\.0\.0$/),
      expect.stringMatching(/ UTC, ingest: failed again in 1\.1\.0 after it was resolved in the release after 1\.0\.0$/),
    ]);
    await expect.poll(() => page.getByTestId("issues-count").textContent(), { timeout: 35_000 }).toBe(" 1");

    // A note lands in the history.
    await page.getByLabel("Note").fill("1.1.0 brought the pool bug back");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect.poll(() => page.locator('ol[aria-label="History"] li').last().textContent()).toMatch(/: “1\.1\.0 brought the pool bug back”$/);
  });
});
