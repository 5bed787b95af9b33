import { describe, expect, it } from "vitest";
import { describeFindings } from "@/components/drift/findings-pager";

describe("describeFindings", () => {
  it("counts a whole list plainly, a page by range, and a filtered list against the project's total", () => {
    expect(describeFindings({ total: 1, offset: 0, limit: 100 }, 1)).toBe("1 finding");
    expect(describeFindings({ total: 2, offset: 0, limit: 100 }, 2)).toBe("2 findings");
    expect(describeFindings({ total: 4000, offset: 100, limit: 100 }, 4000)).toBe("101–200 of 4,000 findings");
    expect(describeFindings({ total: 3, offset: 0, limit: 100 }, 12)).toBe("3 findings matching (12 in all)");
    expect(describeFindings({ total: 250, offset: 200, limit: 100 }, 900)).toBe("201–250 of 250 findings matching (900 in all)");
    // Cards that hold several findings are counted too; as many cards as findings shown say nothing more.
    expect(describeFindings({ total: 3, offset: 0, limit: 100 }, 3, 2)).toBe("3 findings, on 2 cards (a card holds every change of one code between two releases)");
    expect(describeFindings({ total: 3, offset: 0, limit: 100 }, 3, 3)).toBe("3 findings");
    expect(describeFindings({ total: 150, offset: 100, limit: 100 }, 150, 1)).toBe("101–150 of 150 findings, on 1 card (a card holds every change of one code between two releases)");
  });
});
