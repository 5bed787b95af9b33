/**
 * Thresholds of the drift rules. Each one trades noise for sensitivity; the values are chosen so
 * that a handful of calls can never produce a finding, while a real change on a few dozen calls does.
 */

/**
 * A code needs at least this many calls in a release before its signature is compared with another
 * release. Below it, one unlucky call swings every share by 10 % or more.
 */
export const MIN_CALLS = 10;

/**
 * A tool release needs at least this many calls before the absence of a code in it means anything
 * (removed/added/renamed are judged only between such releases).
 */
export const MIN_TOOL_CALLS = 20;

/**
 * A code is reported removed (or added) only when, at its rate in the release where it exists, the
 * other release should have shown at least this many of its calls. For a Poisson count with mean 5
 * the chance of seeing none by luck is e^-5 ≈ 0.7 %.
 */
export const MIN_EXPECTED_CALLS = 5;

/**
 * A categorical dimension (class, retryability, outcome, decision) is repurposed when its most common
 * value changed and at least half of the mass moved (total variation distance ≥ 0.5). A mix that
 * merely leans differently (70/30 → 45/55) is not a change of meaning.
 */
export const MIX_SHIFT = 0.5;

/** A mix is compared only when both sides have at least this many known values. */
export const MIN_MIX_SAMPLES = 10;

/**
 * Recovery rate drift: the rate moved by at least 25 percentage points AND a two-proportion z-test
 * says |z| ≥ 3 (p < 0.3 %), so a modest move on small samples is not reported.
 */
export const RECOVERY_MIN_DELTA = 0.25;
export const RECOVERY_MIN_Z = 3;

/** A code claiming to be transient whose calls recover at most this often "never recovers". */
export const NEVER_RECOVERS = 0.05;

/**
 * retry_after drift: at least 10 samples on each side and the median or the p90 at least doubled
 * or halved. Delays are stored at two significant digits, so jitter alone never gets near 2×.
 */
export const RETRY_AFTER_MIN_SAMPLES = 10;
export const RETRY_AFTER_MIN_RATIO = 2;

/** How many example runs are kept per code, tool and release. */
export const EXAMPLE_RUNS = 3;

/** How many told shapes a signature lists. */
export const TOP_TOLD_SHAPES = 3;
