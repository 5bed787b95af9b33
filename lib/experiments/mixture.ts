/**
 * The mixture sequential probability ratio test (mSPRT) of Johari, Pekelis and Walsh ("Always valid
 * inference", 2017) with a normal mixing distribution, on a normal approximation of the estimate.
 * For an estimate `d` of a difference θ with variance `v`, and a N(0, τ²) mixture over θ under the
 * alternative, the likelihood ratio against θ = θ₀ is
 *
 *   Λ = √(v / (v + τ²)) · exp(τ² (d − θ₀)² / (2 v (v + τ²)))
 *
 * Under θ = θ₀ it is a nonnegative martingale with mean 1, so by Ville's inequality the chance that
 * it EVER reaches 1/α is at most α: the test may be looked at after every record, every day, and
 * stopped at any look, without inflating the false-positive rate. Inverting it gives an always-valid
 * confidence interval (all θ₀ not rejected).
 */

/** What {@link mixtureTest} needs: an estimate, its variance, the level and the mixing variance. */
export interface MixtureInput {
  /** The estimate (a difference of rates, or of means). */
  estimate: number;
  /** Its variance (sum of the two arms' variances of their means). */
  variance: number;
  /** The false-positive bound over the whole experiment, e.g. 0.05. */
  alpha: number;
  /** The mixing variance τ²: the squared size of the effects the test is tuned to find. */
  tau2: number;
  /** The null value of the difference. Default 0. */
  nullValue?: number;
}

/** The answer of {@link mixtureTest}. */
export interface MixtureResult {
  /** The mixture likelihood ratio against the null value. */
  lambda: number;
  /** The always-valid p-value at this look: min(1, 1/Λ). */
  pValue: number;
  /** True when Λ ≥ 1/α: the null is rejected. */
  rejected: boolean;
  /** The always-valid (1 − α) confidence interval of the difference. */
  interval: readonly [number, number];
}

/** The half-width of the always-valid (1 − α) interval for an estimate of variance `v` (∞ when v is not positive). */
export function mixtureHalfWidth(variance: number, alpha: number, tau2: number): number {
  if (!(variance > 0)) return Number.POSITIVE_INFINITY;
  const v = variance;
  return Math.sqrt(((v * (v + tau2)) / tau2) * (2 * Math.log(1 / alpha) + Math.log((v + tau2) / v)));
}

/** The mSPRT at one look (module comment). A non-positive variance (no data) rejects nothing. */
export function mixtureTest(input: MixtureInput): MixtureResult {
  const { estimate, variance: v, alpha, tau2 } = input;
  const diff = estimate - (input.nullValue ?? 0);
  if (!(v > 0) || !Number.isFinite(estimate)) {
    return { lambda: 1, pValue: 1, rejected: false, interval: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY] };
  }
  const logLambda = 0.5 * Math.log(v / (v + tau2)) + (tau2 * diff * diff) / (2 * v * (v + tau2));
  const lambda = Math.exp(logLambda);
  const half = mixtureHalfWidth(v, alpha, tau2);
  return { lambda, pValue: Math.min(1, Math.exp(-logLambda)), rejected: logLambda >= Math.log(1 / alpha), interval: [estimate - half, estimate + half] };
}

/**
 * The variance of a proportion's estimate from `successes` of `trials`, with half a success and half
 * a failure added (the Jeffreys-style correction): at 0 or 100 % the plain p(1 − p)/n would be 0 and
 * claim certainty the data cannot give.
 */
export function proportionVariance(successes: number, trials: number): number {
  if (trials <= 0) return Number.POSITIVE_INFINITY;
  const p = (successes + 0.5) / (trials + 1);
  return (p * (1 - p)) / trials;
}
