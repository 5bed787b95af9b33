// What the storage-fault tests ask of a running server: a one-run ingest batch, its health, and a
// wait for a condition (the server's checks run on their own schedule).
import { expect } from "vitest";
import type { TestServer } from "./server";

const T = Date.now() - 60_000;

/** A native batch holding one run whose run id is `id`. */
export const runBatch = (id: string): string => JSON.stringify({ records: [{ type: "run", id, run_id: id, agent: "a", started_at: T, state: "running" }] });

export const postBatch = (server: TestServer, body: string): Promise<Response> =>
  fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body });

export async function health(server: TestServer): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Probes every 100 ms until `done` holds, for at most 30 s; the last value either way. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await probe();
    if (done(value) || i > 300) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const runIds = async (server: TestServer): Promise<string[]> =>
  (await server.store.all<{ run_id: string }>("SELECT run_id FROM runs ORDER BY run_id")).map((r) => r.run_id);

/**
 * Once the fault is cleared: health turns ok by itself, and the batch refused during the fault
 * (run "during") is accepted on retry beside the run stored before it.
 */
export async function expectRecovered(server: TestServer): Promise<void> {
  const recovered = await until(() => health(server), (h) => h.status === 200);
  expect(recovered.body).toMatchObject({ status: "ok", database: "ok" });
  const retried = await postBatch(server, runBatch("during"));
  expect(retried.status).toBe(200);
  expect(await retried.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
  expect(await runIds(server)).toEqual(["before", "during"]);
}
