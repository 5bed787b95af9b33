import type { SloState } from "@/lib/contracts/slos";

/** The SLO states as the page words them. */
export const SLO_STATE_LABEL: Record<SloState, string> = {
  ok: "within budget",
  ticket: "slow burn (ticket)",
  page: "fast burn (page)",
  exhausted: "budget spent",
  no_data: "no calls in the window",
};

/** A fraction in percent to one decimal: `62.5%`, `-127.3%`. */
export const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** An objective in percent to as many decimals as it has (99.95 %). */
export const objectivePercent = (x: number) => `${Math.round(x * 1_000_000) / 10_000}%`;

/** The SLO page's URL for a project (and one SLO). */
export function sloPageHref(project: string, slo?: number): string {
  const q = new URLSearchParams();
  if (project !== "default") q.set("project", project);
  if (slo !== undefined) q.set("slo", String(slo));
  const s = q.toString();
  return s ? `/slos?${s}` : "/slos";
}
