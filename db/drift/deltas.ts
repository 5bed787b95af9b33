import type { ReleaseKind } from "@/lib/contracts/drift";
import { EXAMPLE_RUNS } from "@/lib/drift/thresholds";

/** What one chunk of new rows adds to one accumulator row (signature or tool release). */
export interface ScalarDelta {
  releaseKind: ReleaseKind;
  spans: number;
  errors: number;
  firstAttempts: number;
  calls: number;
  recovered: number;
  /** Spans and final errors whose code a project's classification rule set. */
  ruled: number;
  firstSeen: number;
  lastSeen: number;
  runIds: string[];
}

const SEP = "\u0000";

/**
 * In-memory sums of one chunk, flushed with one write per touched row instead of one per source
 * row. Keys join their parts with NUL, which no code, tool or release can contain.
 */
export class DriftDeltas {
  readonly signatures = new Map<string, ScalarDelta>();
  readonly toolReleases = new Map<string, ScalarDelta>();
  readonly counts = new Map<string, number>();

  private scalar(map: Map<string, ScalarDelta>, key: string, releaseKind: ReleaseKind, at: number): ScalarDelta {
    let d = map.get(key);
    if (!d) {
      d = { releaseKind, spans: 0, errors: 0, firstAttempts: 0, calls: 0, recovered: 0, ruled: 0, firstSeen: at, lastSeen: at, runIds: [] };
      map.set(key, d);
    }
    d.firstSeen = Math.min(d.firstSeen, at);
    d.lastSeen = Math.max(d.lastSeen, at);
    return d;
  }

  signature(code: string, tool: string, release: string, releaseKind: ReleaseKind, at: number, runId: string | null): ScalarDelta {
    const d = this.scalar(this.signatures, [code, tool, release].join(SEP), releaseKind, at);
    if (runId !== null) addExample(d.runIds, runId);
    return d;
  }

  toolRelease(tool: string, release: string, releaseKind: ReleaseKind, at: number, runId: string): ScalarDelta {
    const d = this.scalar(this.toolReleases, [tool, release].join(SEP), releaseKind, at);
    addExample(d.runIds, runId);
    return d;
  }

  /** Adds `by` (−1 takes a row's count back when it moves to another release). */
  count(code: string, tool: string, release: string, basis: "attempts" | "errors" | "rules", dim: string, value: string, by = 1): void {
    const key = [code, tool, release, basis, dim, value].join(SEP);
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }
}

export const splitKey = (key: string) => key.split(SEP);

/** Keeps the first few distinct run ids. */
export function addExample(runIds: string[], runId: string): void {
  if (runIds.length < EXAMPLE_RUNS && !runIds.includes(runId)) runIds.push(runId);
}

export function mergeExamples(stored: string, fresh: readonly string[]): string {
  const ids = parseRunIds(stored);
  for (const id of fresh) addExample(ids, id);
  return JSON.stringify(ids);
}

export function parseRunIds(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}
