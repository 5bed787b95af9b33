import type { ExperimentDetail, VariantStats } from "@/lib/contracts/experiments";

type Estimate = VariantStats["selfCorrection"];

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

/** A rate and its always-valid interval as shown: `41.2% (33.0–49.8%)`; `—` without decided errors (a gap, not a zero). */
export function rateText(e: Estimate): string {
  if (e === null) return "—";
  return e.interval === null ? pct(e.value) : `${pct(e.value)} (${pct(e.interval[0])}–${pct(e.interval[1])})`;
}

/** Calls until recovery as shown: the mean and its interval; `—` without recoveries. */
export function callsText(e: Estimate): string {
  if (e === null) return "—";
  const f = (x: number) => (Math.round(x * 100) / 100).toFixed(2);
  return e.interval === null ? f(e.value) : `${f(e.value)} (${f(e.interval[0])}–${f(e.interval[1])})`;
}

/** One row per variant: its wording, split and results, the control first, the verdict's variant marked. */
export function experimentRows(d: ExperimentDetail) {
  return d.experiment.variants.map((v, i) => {
    const s = d.stats.find((x) => x.id === v.id);
    const vsControl = d.comparisons.find((c) => c.variant === v.id && c.metric === "selfCorrection");
    return {
      id: v.id,
      text: v.text,
      weight: v.weight,
      control: i === 0,
      exposures: s?.exposures ?? 0,
      decided: s?.decided ?? 0,
      selfCorrection: rateText(s?.selfCorrection ?? null),
      repeatRate: rateText(s?.repeatRate ?? null),
      runFailedRate: rateText(s?.runFailedRate ?? null),
      callsUntilRecovery: callsText(s?.callsUntilRecovery ?? null),
      difference: vsControl ? `${vsControl.difference >= 0 ? "+" : ""}${(Math.round(vsControl.difference * 1000) / 10).toFixed(1)} points, p=${vsControl.pValue < 0.001 ? "<0.001" : vsControl.pValue.toFixed(3)}` : i === 0 ? "control" : "—",
      verdict: d.verdict.variant === v.id ? d.verdict.kind : null,
      winner: d.experiment.winner === v.id,
    };
  });
}

/**
 * The wording a told shape suggests for an experiment: the message alone, without the `error: <code>: `
 * (or refusal `<code>: `) prefix, why it was not retried and the `retryable:` line (a shape holds the
 * told text on one line), with masked values left as written for the admin to fill in.
 */
export function wordingFromShape(shape: string): string {
  return shape
    .replace(/\s+retryable: (yes|no)\b[\s\S]*$/, "")
    .replace(/^error: <code>(: )?/, "")
    .replace(/^<code>: /, "")
    .replace(/( after <?\w+>? attempts)?; (not retried|the retry budget|not declared)[\s\S]*$/, "")
    .trim();
}

/** The Experiments page with the create form prefilled from a code's wordings (at most four, the best first). */
export function newExperimentHref(project: string | undefined, code: string, tool: string | undefined, shapes: readonly string[]): string {
  const q = new URLSearchParams({ ...(project ? { project } : {}), new: code, ...(tool ? { tool } : {}) });
  for (const s of shapes.slice(0, 4)) q.append("w", wordingFromShape(s));
  return `/experiments?${q.toString()}`;
}
