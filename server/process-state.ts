// State that must exist once per server process, in one registry.
//
// Why: Next.js loads server code in several bundles (route handlers, server-rendered pages, the
// instrumentation hook, the proxy), and each bundle holds its own copy of every module it uses. A
// module-level variable therefore exists once per copy: two configurations, two database pools, two
// job workers, throttles that each count half the failures. What must be one per process hangs off
// `globalThis`, the one object every copy shares, under a single key, and only through this module.

/** Every piece of process-wide state, by name (one line each: what it holds). */
export type ProcessStateName =
  | "config" // the parsed configuration (server/config.ts)
  | "store" // the database store being opened or open (server/store.ts)
  | "jobs" // the job runner and its worker thread (server/jobs/job-runner.ts)
  | "drift-folds" // drift folds scheduled per project (server/jobs/drift-fold.ts)
  | "reclassify" // re-classifications of history scheduled per project (server/jobs/reclassify-schedule.ts)
  | "health-checks" // whether the storage health checks are scheduled (server/jobs/health-check.ts)
  | "storage" // storage faults seen and the health they imply (server/storage-fault.ts)
  | "oidc" // the single-sign-on provider's discovered configuration (server/auth/oidc/oidc-client.ts)
  | "accounts" // whether any account exists, once one does (server/auth/access.ts)
  | "http" // the HTTP servers, their door check and requests in progress (server/http/node-server.ts)
  | "event-loop" // the event-loop delay sampler (server/http/loop-turn.ts)
  | "ingest-slots" // ingest requests in flight, in total and per key (server/http/backpressure.ts)
  | "admission" // admission control of ingest requests (server/http/admission.ts)
  | "ingest-coalescers" // ingest batches written together, per store (server/ingest/write-isolating.ts)
  | "auth-throttles"; // failed-secret throttles per kind of secret (server/http/auth-throttle.ts)

const REGISTRY = Symbol.for("faultline.process-state");

// `globalThis` typed with the registry's one key: every other property stays as the platform declares it.
const shared: typeof globalThis & { [REGISTRY]?: Map<ProcessStateName, object> } = globalThis;

/**
 * The process's one object named `name`: `init` makes it on the first call from any copy of any
 * module; every later call (from any copy) returns that object. State that changes is a property of
 * it (`processState("config", () => ({}) as { config?: Config }).config ??= …`).
 */
export function processState<T extends object>(name: ProcessStateName, init: () => T): T {
  const registry = (shared[REGISTRY] ??= new Map());
  let state = registry.get(name);
  if (state === undefined) {
    state = init();
    registry.set(name, state);
  }
  // Each name is asked for by one module (see ProcessStateName), which always passes the same `init`.
  return state as T;
}
