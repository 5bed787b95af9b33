import { describe, expect, it } from "vitest";
import { callsText, newExperimentHref, rateText, wordingFromShape } from "@/lib/charts/experiment-rows";

describe("experiment rows", () => {
  it("turns a told shape into the message an experiment varies", () => {
    expect(wordingFromShape("error: <code>: fare class no longer sold retryable: no (repeating the same call will not help)")).toBe("fare class no longer sold");
    expect(wordingFromShape("error: <code>: got <value>, expected YYYY-MM-DD\nretryable: no (x)")).toBe("got <value>, expected YYYY-MM-DD");
    expect(wordingFromShape("error: <code>: seat map locked after <n> attempts; the retry budget of this tool for the run is used up retryable: yes (y)")).toBe("seat map locked");
    expect(wordingFromShape("<code>: this fare is non-refundable")).toBe("this fare is non-refundable");
  });

  it("shows rates with their intervals, and a gap as a dash", () => {
    expect(rateText({ value: 0.4125, interval: [0.33, 0.498] })).toBe("41.3% (33.0%–49.8%)");
    expect(rateText(null)).toBe("—");
    expect(callsText({ value: 1.25, interval: null })).toBe("1.25");
  });

  it("links to the create form with at most four wordings", () => {
    expect(newExperimentHref("p", "bad_date", undefined, ["error: <code>: a", "error: <code>: b", "c", "d", "e"])).toBe("/experiments?project=p&new=bad_date&w=a&w=b&w=c&w=d");
  });
});
