"use client";

import dynamic from "next/dynamic";

// recharts is ~120 KB of gzip, the largest script of a chart page. These load it after the first
// paint (ChartFrame reserves each chart's height meanwhile), so numbers and tables do not wait.
// The skeleton takes the chart's own height (ChartFrame sets --chart-height), so nothing moves when it lands.
const loading = () => <div className="skeleton chart-skeleton" data-testid="chart-skeleton" />;

export const OutcomeChart = dynamic(() => import("@/components/charts/outcome-chart").then((m) => m.OutcomeChart), { ssr: false, loading });
export const CodeStackChart = dynamic(() => import("@/components/charts/code-stack-chart").then((m) => m.CodeStackChart), { ssr: false, loading });
export const DelayHistogramChart = dynamic(() => import("@/components/charts/delay-histogram-chart").then((m) => m.DelayHistogramChart), { ssr: false, loading });
export const AttemptsChart = dynamic(() => import("@/components/charts/attempts-chart").then((m) => m.AttemptsChart), { ssr: false, loading });
export const CodeReleaseChart = dynamic(() => import("@/components/charts/code-release-chart").then((m) => m.CodeReleaseChart), { ssr: false, loading });
export const AdoptionChart = dynamic(() => import("@/components/charts/adoption-chart").then((m) => m.AdoptionChart), { ssr: false, loading });
