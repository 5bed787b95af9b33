import { describe, expect, it } from "vitest";
import { nextAttemptDelay, retryableStatus } from "@/lib/alerts/backoff";
import { alertLink, buildNotification, slackBody } from "@/lib/alerts/notification";

describe("alertLink", () => {
  it("links drift to its findings, a new code to the code page, the rest to the tool page", () => {
    expect(alertLink("drift", "default", "lookup", "upstream_timeout")).toBe("/drift?tool=lookup&code=upstream_timeout");
    expect(alertLink("new_code", "p1", "look up", "a/b")).toBe("/codes/a%2Fb?project=p1&tool=look+up");
    expect(alertLink("failure_rate", "default", "a/b", "")).toBe("/tools/a%2Fb");
    expect(alertLink("retry_storm", "p1", "lookup", "")).toBe("/tools/lookup?project=p1");
  });
});

describe("slackBody", () => {
  it("has text, the summary, the facts, the runs with links and the link as a button", () => {
    const at = Date.UTC(2026, 0, 1);
    const context = { codes: [{ code: "upstream_timeout", count: 12 }], releases: ["1.4.2"], environments: ["prod"], runs: ["r1", "r 2"], firstAt: at - 60_000 };
    const n = buildNotification(
      { id: 3, name: "lookup failing", kind: "failure_rate", project: "default" },
      { status: "firing", tool: "lookup", code: "", value: "60% of 20 calls failed in 10 min" },
      at,
      "https://faultline.example/",
      { summary: "the summary", threshold: "more than 50% of calls failed in 10 min (at least 20 calls)", since: at - 60_000, durationMs: null, context },
    );
    expect([n.link, n.code, n.runs]).toEqual([
      "https://faultline.example/tools/lookup",
      "upstream_timeout",
      [{ id: "r1", link: "https://faultline.example/runs/r1" }, { id: "r 2", link: "https://faultline.example/runs/r%202" }],
    ]);
    expect(slackBody(n)).toEqual({
      text: "FIRING: lookup failing (lookup / upstream_timeout) — 60% of 20 calls failed in 10 min",
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: "*:red_circle: Firing: lookup failing*\nthe summary" } },
        { type: "context", elements: [{ type: "mrkdwn", text: "project default · tool lookup · code upstream_timeout · release 1.4.2 · env prod · since 2025-12-31 23:59 UTC" }] },
        { type: "section", text: { type: "mrkdwn", text: "Runs: <https://faultline.example/runs/r1|r1> · <https://faultline.example/runs/r%202|r 2>" } },
        { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in Faultline" }, url: "https://faultline.example/tools/lookup" }] },
      ],
    });
  });
});

describe("backoff", () => {
  it("retries 5xx, 408 and 429, never other 4xx", () => {
    expect([500, 502, 503, 408, 429, 400, 401, 404, 410, 422].map(retryableStatus)).toEqual([true, true, true, true, true, false, false, false, false, false]);
  });

  it("doubles up to the cap and gives up past the horizon", () => {
    const o = { baseMs: 1000, capMs: 8000, giveUpAfterMs: 20_000 };
    expect([1, 2, 3, 4, 5].map((n) => nextAttemptDelay(n, 0, 0, o))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(nextAttemptDelay(6, 0, 12_000, o)).toBe(8000);
    expect(nextAttemptDelay(7, 0, 12_001, o)).toBeNull();
  });
});
