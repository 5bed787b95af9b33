import type { DriftFinding, SelfCorrectionSide } from "@/lib/contracts/drift";
import { MIN_TOLD_SAMPLE } from "@/lib/contracts/told";
import { findingId, twoProportionZ } from "./compare";
import { bumpBetween, orderReleases } from "./semver";
import { pct, plural, quoteCode, verdictClause } from "./sentence";
import { RECOVERY_MIN_DELTA, RECOVERY_MIN_Z } from "./thresholds";
import { severityFor, verdictFor } from "./verdict";

/** The self-correction counts of one code on one tool in one release (from the told counts). */
export interface ToldReleaseCounts {
  tool: string;
  code: string;
  release: string;
  firstSeen: number;
  /** Surfaced errors whose next step is decided. */
  decided: number;
  /** Of those, the ones the model recovered from (same tool or a replacement). */
  recovered: number;
}

const side = (c: ToldReleaseCounts): SelfCorrectionSide => ({ release: c.release, firstSeen: c.firstSeen, decided: c.decided, recovered: c.recovered, rate: c.recovered / c.decided });

/**
 * Model behaviour findings (docs/after-told.md): between consecutive releases of one code on one
 * tool, the share of surfaced errors the model recovered from dropped by at least
 * {@link RECOVERY_MIN_DELTA} and a two-proportion z-test says |z| ≥ {@link RECOVERY_MIN_Z} — the
 * drift engine's rule for recovery — on releases with at least {@link MIN_TOLD_SAMPLE} decided
 * errors each (rarer releases are skipped, not compared). A rise as large is listed too, as an
 * improvement (information, never a violation). Example runs are left empty: the caller looks them
 * up for the few findings raised.
 */
export function modelBehaviourFindings(counts: readonly ToldReleaseCounts[]): DriftFinding[] {
  const byPair = new Map<string, ToldReleaseCounts[]>();
  for (const c of counts) {
    if (c.release === "" || c.decided < MIN_TOLD_SAMPLE) continue;
    const key = `${c.tool}\u0000${c.code}`;
    (byPair.get(key) ?? byPair.set(key, []).get(key)!).push(c);
  }
  const findings: DriftFinding[] = [];
  for (const series of byPair.values()) {
    const ordered = orderReleases(series);
    for (let i = 1; i < ordered.items.length; i++) {
      const a = ordered.items[i - 1]!;
      const b = ordered.items[i]!;
      const before = side(a);
      const after = side(b);
      const z = twoProportionZ(a.recovered, a.decided, b.recovered, b.decided);
      if (Math.abs(before.rate - after.rate) < RECOVERY_MIN_DELTA || Math.abs(z) < RECOVERY_MIN_Z) continue;
      const direction = after.rate < before.rate ? "worse" : "better";
      const bump = ordered.order === "semver" ? bumpBetween(a.release, b.release) : "not_semver";
      const verdict = verdictFor("model_behaviour", bump, direction);
      const q = quoteCode(b.code);
      const what =
        `after being told ${q} from ${quoteCode(b.tool)}, the model recovered from ${pct(before.rate)} of ${plural(a.decided, "error")} in ${a.release}` +
        ` and from ${pct(after.rate)} of ${plural(b.decided, "error")} in ${b.release}`;
      const advice =
        direction === "worse"
          ? `compare what ${q} tells the model in ${b.release} with ${a.release} (its wordings on the code page) and restore the wording or prompt that worked`
          : `keep what ${q} tells the model in ${b.release} (its wordings on the code page): it helps the model more than ${a.release}'s`;
      findings.push({
        id: findingId(["model_behaviour", "self_correction", b.tool, b.code, "", a.release, b.release]),
        kind: "model_behaviour",
        metric: "self_correction",
        severity: severityFor("model_behaviour", verdict),
        verdict,
        bump,
        code: b.code,
        renamedTo: null,
        tool: b.tool,
        fromRelease: a.release,
        toRelease: b.release,
        beforeCalls: a.decided,
        afterCalls: b.decided,
        changes: ["self_correction"],
        direction,
        sentence: `${what[0]!.toUpperCase()}${what.slice(1)}: ${verdictClause("model_behaviour", bump, verdict)}; ${advice}.`,
        before: null,
        after: null,
        exampleRuns: { before: [], after: [] },
        selfCorrection: { before, after },
      });
    }
  }
  return findings;
}
