/**
 * The demo's wording experiment: the `upstream_rejected` of fare class B in two wordings, only the
 * second saying what to do about it. Declared in code (one wording per run, recorded), and replaced
 * by Faultline's wording set when the demo is given a read key (docs/experiments.md).
 */
import { defineExperiment } from "../lib/runtime";

export const FARE_WORDINGS = defineExperiment("fare-wording", [
  { id: "control", text: "fare class no longer sold" },
  { id: "pick-another", text: "fare class is no longer sold; pick another fare class from the search_flights results" },
]);
