import type { GateResponse } from "@/lib/contracts/gate";
import type { ToolRelease } from "./compare";
import { orderReleases } from "./semver";
import { plural } from "./sentence";
import { MIN_TOOL_CALLS } from "./thresholds";

/** What the gate compares a tool of the release with: its predecessor, a named release or a document's side. */
export type BaseKind = "predecessor" | "release" | "contract";

/** One tool of the release and its base. */
export type Pair = { from: ToolRelease; to: ToolRelease };

export interface ToolPairs {
  /** Tools with a base and enough calls on both sides. */
  judged: Pair[];
  /** Every other tool of the release, with why it was not compared. */
  unjudged: GateResponse["unjudged"];
}

/**
 * Splits the tools of the release into those the gate compares and those it cannot, each with why,
 * so an answer never claims to have compared a tool it did not look at.
 */
export function pairTools(targets: readonly ToolRelease[], baseFor: (to: ToolRelease) => ToolRelease | undefined, kind: BaseKind, baseLabel: string): ToolPairs {
  const judged: Pair[] = [];
  const unjudged: GateResponse["unjudged"] = [];
  for (const to of [...targets].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0))) {
    const from = baseFor(to);
    if (!from) {
      const why = kind === "predecessor" ? `first release of \`${to.tool}\`: nothing earlier to compare with` : `\`${to.tool}\` has no call in ${baseLabel}`;
      unjudged.push({ tool: to.tool, calls: to.calls, reason: kind === "predecessor" ? "no_predecessor" : "not_in_base", base: null, baseCalls: null, why });
    } else if (from.calls < MIN_TOOL_CALLS || to.calls < MIN_TOOL_CALLS) {
      const why = `too few calls to judge (at least ${MIN_TOOL_CALLS} per release): ${plural(from.calls, "call")} in ${from.release}, ${plural(to.calls, "call")} in ${to.release}`;
      unjudged.push({ tool: to.tool, calls: to.calls, reason: "too_few_calls", base: from.release, baseCalls: from.calls, why });
    } else {
      judged.push({ from, to });
    }
  }
  return { judged, unjudged };
}

/** The release each tool's predecessor is: the one before `release` in the tool's own order. */
export function predecessorOf(toolReleases: readonly ToolRelease[], release: string) {
  return (to: ToolRelease): ToolRelease | undefined => {
    const ordered = orderReleases(toolReleases.filter((r) => r.tool === to.tool)).items;
    const at = ordered.findIndex((r) => r.release === release);
    return at > 0 ? ordered[at - 1] : undefined;
  };
}
