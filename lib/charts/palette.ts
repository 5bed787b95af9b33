/**
 * The dashboard's colours, in one place. Outcomes use a colour-blind-safe set built on Okabe–Ito
 * (failed is vermillion, timed out is blue: apart under every common colour-vision deficiency);
 * codes use a separate set that never reuses an outcome colour, so a code bar is never mistaken
 * for an outcome. app/globals.css declares these values as CSS variables (`--c-<outcome>`,
 * `--code-<n>`) for both colour schemes; test/unit/charts/palette.test.ts keeps the two equal.
 */

export type Scheme = "light" | "dark";

export interface Swatch {
  /** Fill of bars, swatches and lines. */
  fill: string;
  /** Text drawn on the fill (timeline bar labels): whichever of black or white reads at 4.5:1. */
  ink: string;
}

const BLACK = "#000000";
const WHITE = "#ffffff";

/** Outcome colours per scheme. Declined and refused also get a fill pattern (dots and hatch). */
export const OUTCOME_PALETTE: Record<Scheme, Record<string, Swatch>> = {
  light: {
    ok: { fill: "#009e73", ink: BLACK },
    failed: { fill: "#d55e00", ink: BLACK },
    declined: { fill: "#e69f00", ink: BLACK },
    refused: { fill: "#cc79a7", ink: BLACK },
    not_found: { fill: "#56b4e9", ink: BLACK },
    timed_out: { fill: "#0072b2", ink: WHITE },
    invalid_arguments: { fill: "#f0e442", ink: BLACK },
    result_rejected: { fill: "#2b2b2b", ink: WHITE },
    cancelled: { fill: "#8c8c8c", ink: BLACK },
    unknown: { fill: "#c8c8c8", ink: BLACK },
  },
  dark: {
    ok: { fill: "#1fb88a", ink: BLACK },
    failed: { fill: "#ef7a2a", ink: BLACK },
    declined: { fill: "#f2b42a", ink: BLACK },
    refused: { fill: "#dc8fbb", ink: BLACK },
    not_found: { fill: "#8fd0f5", ink: BLACK },
    timed_out: { fill: "#3f8fe0", ink: BLACK },
    invalid_arguments: { fill: "#f0e442", ink: BLACK },
    result_rejected: { fill: "#e6e6e6", ink: BLACK },
    cancelled: { fill: "#9a9a9a", ink: BLACK },
    unknown: { fill: "#5c5c5c", ink: WHITE },
  },
};

/** Code series colours per scheme, in series order; the last one is "(other codes)". */
export const CODE_PALETTE: Record<Scheme, readonly string[]> = {
  light: ["#332288", "#882255", "#8a8a1f", "#7a4a14", "#aa4499", "#3d6b7a", "#a3a3c2"],
  dark: ["#a99cf0", "#e0709b", "#c9c95a", "#c89660", "#d98ad0", "#7fb3c4", "#6e6e8f"],
};

/** Other marks that are neither outcomes nor codes. */
export const MARK_PALETTE: Record<Scheme, Record<"retryAfter" | "backoff" | "deadline" | "runEnd", string>> = {
  light: { retryAfter: "#3353d1", backoff: "#6b5b3e", deadline: "#b42318", runEnd: "#15171c" },
  dark: { retryAfter: "#8ea2ff", backoff: "#c2ad86", deadline: "#ff8a80", runEnd: "#e6e8ee" },
};

/** The CSS variable of an outcome's fill (unknown outcomes share the "unknown" look). */
export const outcomeVar = (outcome: string): string => `var(--c-${outcome in OUTCOME_PALETTE.light ? outcome : "unknown"})`;

/** The CSS variable of an outcome's text colour on its fill. */
export const outcomeInkVar = (outcome: string): string => `var(--c-${outcome in OUTCOME_PALETTE.light ? outcome : "unknown"}-ink)`;

/** The colour of the `i`th code series; cycles when there are more codes than colours. */
export const codeVar = (i: number): string => `var(--code-${(i % CODE_PALETTE.light.length) + 1})`;

/** The colour of "(other codes)": always the last code colour, whatever the series count. */
export const OTHER_CODES_VAR = `var(--code-${CODE_PALETTE.light.length})`;

/** The CSS declarations of one scheme, as app/globals.css must carry them. */
export function paletteDeclarations(scheme: Scheme): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [o, s] of Object.entries(OUTCOME_PALETTE[scheme])) {
    out[`--c-${o}`] = s.fill;
    out[`--c-${o}-ink`] = s.ink;
  }
  CODE_PALETTE[scheme].forEach((c, i) => (out[`--code-${i + 1}`] = c));
  const m = MARK_PALETTE[scheme];
  out["--c-retry-after"] = m.retryAfter;
  out["--c-backoff"] = m.backoff;
  out["--c-deadline"] = m.deadline;
  out["--c-run-end"] = m.runEnd;
  return out;
}
