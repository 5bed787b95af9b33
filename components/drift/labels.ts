import type { ChangePoint } from "@/lib/charts/code-release-history";
import type { DriftBump, DriftKind, DriftVerdict } from "@/lib/contracts/drift";

export const KIND_LABEL: Record<DriftKind, string> = {
  repurposed: "Repurposed",
  behaviour: "Behaviour drift",
  model_behaviour: "Model behaviour",
  removed: "Removed",
  added: "Added",
  renamed: "Renamed",
};

export const VERDICT_LABEL: Record<DriftVerdict, string> = {
  violation: "SemVer violation",
  allowed: "allowed by SemVer",
  not_semver: "no SemVer verdict",
  improvement: "improvement",
};

export const BUMP_LABEL: Record<DriftBump, string> = {
  major: "major release",
  minor: "minor release",
  patch: "patch release",
  prerelease: "pre-release",
  pre1_minor: "0.x minor release",
  not_semver: "non-SemVer releases",
};

/** The label of a change point (chart marker and caption alike): finding numbers and kinds. */
export function changePointLabel(cp: Pick<ChangePoint, "findings">): string {
  const kinds = [...new Set(cp.findings.map((f) => KIND_LABEL[f.kind]))].join(" + ");
  return `${cp.findings.map((f) => f.n).join(", ")} · ${kinds}`;
}
