/**
 * The demo's wording experiment: the `upstream_rejected` of fare class B in two wordings, only the
 * second saying what to do about it. Declared in code (one wording per run, recorded), created and
 * started in Faultline by the demo so the Experiments page shows it running on a fresh demo, and
 * replaced by Faultline's wording set when the demo is given a read key (docs/experiments.md).
 */
import type { ExperimentCreate } from "../lib/contracts/experiments";
import { defineExperiment } from "../lib/runtime";

/** Whole percent, as Faultline stores a split: the code-side and the stored experiment assign every run alike. */
export const FARE_WORDINGS = defineExperiment("fare-wording", [
  { id: "control", text: "fare class no longer sold", weight: 50 },
  { id: "pick-another", text: "fare class is no longer sold; pick another fare class from the search_flights results", weight: 50 },
]);

/** The experiment row the demo creates: the code-side declaration, on every tool that raises the code. */
export const FARE_EXPERIMENT: ExperimentCreate = {
  id: FARE_WORDINGS.id,
  code: "upstream_rejected",
  tool: null,
  variants: FARE_WORDINGS.variants.map((v) => ({ id: v.id, text: v.text, weight: v.weight })),
};

/** Where and as whom the demo creates its experiment. */
export interface DemoExperimentTarget {
  url: string;
  project: string;
  /** The admin secret (an instance-owner credential); without it only a server in setup mode lets the demo create it. */
  adminSecret?: string | undefined;
}

/**
 * Makes sure the project has the demo's experiment: creates it and starts it when it is missing, and
 * leaves one that exists as it is (a re-run of the demo never restarts a stopped or promoted one).
 * Answers one line saying what happened; never throws for an answer of the server, so the demo runs
 * on (its records name the experiment either way).
 */
export async function ensureDemoExperiment(target: DemoExperimentTarget): Promise<string> {
  try {
    return await ensure(target);
  } catch (error) {
    return `experiment ${FARE_EXPERIMENT.id} not created: ${(error as Error).message}`;
  }
}

async function ensure(target: DemoExperimentTarget): Promise<string> {
  const base = `${target.url.replace(/\/+$/, "")}/api/v1/projects/${encodeURIComponent(target.project)}/experiments`;
  const headers: Record<string, string> = { "content-type": "application/json", ...(target.adminSecret ? { authorization: `Bearer ${target.adminSecret}` } : {}) };
  const call = async (path: string, method: string, body?: unknown) => {
    const res = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(10_000) });
    const answer = (await res.json().catch(() => null)) as { experiment?: { state?: string }; error?: { message?: string } } | null;
    return { status: res.status, state: answer?.experiment?.state, message: answer?.error?.message };
  };
  const id = FARE_EXPERIMENT.id;
  const existing = await call(`/${id}`, "GET");
  if (existing.status === 200) return `experiment ${id} is ${existing.state} (left as it is)`;
  if (existing.status === 401 || existing.status === 403) return refused(id, existing.status);
  if (existing.status !== 404) return `experiment ${id} not checked: ${existing.status} ${existing.message ?? ""}`.trim();
  const created = await call("", "POST", FARE_EXPERIMENT);
  if (created.status === 401 || created.status === 403) return refused(id, created.status);
  if (created.status !== 201 && created.status !== 409) return `experiment ${id} not created: ${created.status} ${created.message ?? ""}`.trim();
  const started = await call(`/${id}`, "PATCH", { action: "start" });
  if (started.status !== 200) return `experiment ${id} created but not started: ${started.message ?? started.status}`;
  return `experiment ${id} created and running (Experiments page)`;
}

const refused = (id: string, status: number) =>
  `experiment ${id} not created (${status}: creating one takes a project admin; pass --admin-secret or set FAULTLINE_ADMIN_SECRET); the records still name it`;
