import { releaseKey, type ReleaseKey } from "@/lib/drift/release-key";
import { emitterSaid, setByRule } from "@/lib/drift/emitter-said";
import { retryableValue } from "@/lib/drift/signature";
import { toldShape } from "@/lib/drift/told-shape";
import type { DriftDeltas } from "./deltas";
import type { CallRow, ErrorScanRow } from "./statements";

const present = (v: string | null | undefined): v is string => typeof v === "string" && v !== "";

/** The earliest span of a call that names the tool's version, with the release it ran under. */
export interface VersionedSpan {
  toolVersion: string;
  release: string | null;
  sdkVersion: string | null;
  startedAt: number;
  pk: number;
}

/**
 * The release a final error is counted under. An error record is about the call its spans
 * describe, so what it does not say itself it takes from them: the tool version (which drift keys
 * on first), then the release, then the SDK version. A runtime that stamps only the service
 * release on its error records must not make the code look removed from the tool's versions.
 */
export function errorReleaseKey(e: ErrorScanRow, span: VersionedSpan | null, sdkVersion: string | null): ReleaseKey {
  const toolVersion = present(e.tool_version) ? e.tool_version : (span?.toolVersion ?? null);
  const release = present(e.release) ? e.release : (span?.release ?? null);
  return releaseKey(toolVersion, release, present(toolVersion) || present(release) ? null : sdkVersion, e.occurred_at);
}

/** The (dimension, value) pairs a final error adds to its signature's counts. */
export function errorDims(e: ErrorScanRow, code: string): [string, string][] {
  const out: [string, string][] = [];
  // What a rule set is not the emitter's word (lib/drift/emitter-said.ts).
  const said = emitterSaid(e);
  if (said.errorClass && present(e.error_class)) out.push(["error_class", e.error_class]);
  if (said.retryable && e.retryable !== null) out.push(["retryable", retryableValue(e.retryable === 1)]);
  if (present(e.decision)) out.push(["decision", e.decision]);
  if (present(e.told)) out.push(["told", toldShape(e.told, code)]);
  return out;
}

/**
 * Moves a final error folded before its call's first versioned span arrived from the release it
 * was counted under (its own) to the span's tool version: its counts are taken back and added
 * again, and the call, when the error was what put it under the old release, moves with it.
 */
export function moveFoldedError(deltas: DriftDeltas, e: ErrorScanRow, to: ReleaseKey, call: (CallRow & { dirty: boolean }) | undefined): void {
  const from = releaseKey(null, e.release, null, e.occurred_at);
  if (from.release === to.release) return;
  deltas.toolRelease(e.tool, from.release, from.kind, e.occurred_at, e.run_id).errors--;
  deltas.toolRelease(e.tool, to.release, to.kind, e.occurred_at, e.run_id).errors++;
  if (!present(e.code)) return;
  const code = e.code;
  const before = deltas.signature(code, e.tool, from.release, from.kind, e.occurred_at, null);
  const after = deltas.signature(code, e.tool, to.release, to.kind, e.occurred_at, e.run_id);
  before.errors--;
  after.errors++;
  if (setByRule(e.rule_id)) {
    before.ruled--;
    after.ruled++;
  }
  for (const [dim, value] of errorDims(e, code)) {
    deltas.count(code, e.tool, from.release, "errors", dim, value, -1);
    deltas.count(code, e.tool, to.release, "errors", dim, value);
  }
  if (call && call.release === from.release) {
    before.calls--;
    after.calls++;
    if (call.recovered === 1) {
      before.recovered--;
      after.recovered++;
    }
    call.release = to.release;
    call.dirty = true;
  }
}
