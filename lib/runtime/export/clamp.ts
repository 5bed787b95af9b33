import { LIMITS, type IngestRecord, type Resource } from "../../contracts";
import { hexId } from "./otlp";

const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;

type Kind = "id" | "name" | "code" | "version" | "text";

const MAX: Record<Kind, number> = {
  id: LIMITS.maxIdLength,
  name: LIMITS.maxNameLength,
  code: LIMITS.maxCodeLength,
  version: LIMITS.maxVersionLength,
  text: LIMITS.maxTextLength,
};

const FIELDS: Readonly<Record<string, Kind>> = {
  id: "id",
  run_id: "id",
  call_id: "id",
  trace_id: "id",
  parent_span_id: "id",
  after_error: "id",
  tool: "name",
  agent: "name",
  service: "name",
  environment: "name",
  code: "code",
  tool_version: "version",
  agent_version: "version",
  release: "version",
  message: "text",
  told: "text",
  error: "text",
};

function fits(value: string, kind: Kind): boolean {
  if (value.length > MAX[kind]) return false;
  if (kind === "text") return true;
  if (value.length === 0 || CONTROL.test(value)) return false;
  return kind !== "name" || value.trim() !== "";
}

/**
 * A value cut to fit `kind`. Identifiers, names, codes and versions keep a readable prefix and end
 * in a hash of the whole value, so two long ids stay distinct and every record of one call still
 * carries the same (clamped) id, which keeps retried batches idempotent.
 */
function clampValue(value: string, kind: Kind): string {
  if (kind === "text") return `${cut(value, MAX.text - 1)}…`;
  const hash = hexId(value, 16);
  const clean = value.replace(CONTROL_ALL, "\uFFFD").trim();
  const room = MAX[kind] - hash.length - 1;
  const prefix = cut(clean, room);
  return prefix === "" ? hash : `${prefix}~${hash}`;
}

/**
 * The first `n` UTF-16 units of `value`, one fewer when the cut would split a surrogate pair: a
 * lone surrogate is not valid Unicode and turns into U+FFFD (or an error) on its way to storage.
 */
function cut(value: string, n: number): string {
  if (value.length <= n) return value;
  const last = value.charCodeAt(n - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

/**
 * A record whose bounded fields fit the wire contract, and whether anything was changed. The
 * original is never mutated; an unchanged record is returned as is (no copy on the hot path).
 */
export function clampRecord(record: IngestRecord): { record: IngestRecord; clamped: boolean } {
  let copy: Record<string, unknown> | undefined;
  const source = record as unknown as Record<string, unknown>;
  for (const key in FIELDS) {
    const value = source[key];
    if (typeof value !== "string") continue;
    const kind = FIELDS[key]!;
    if (fits(value, kind)) continue;
    copy ??= { ...source };
    copy[key] = clampValue(value, kind);
  }
  return copy ? { record: copy as unknown as IngestRecord, clamped: true } : { record, clamped: false };
}

/** The resource block with its fields cut to the contract's bounds. */
export function clampResource(resource: Resource): Resource {
  const out: Resource = { ...resource };
  for (const key of ["service", "environment", "release"] as const) {
    const value = out[key];
    if (typeof value === "string" && !fits(value, FIELDS[key]!)) out[key] = clampValue(value, FIELDS[key]!);
  }
  if (out.sdk) {
    out.sdk = {
      name: fits(out.sdk.name, "name") ? out.sdk.name : clampValue(out.sdk.name, "name"),
      version: fits(out.sdk.version, "version") ? out.sdk.version : clampValue(out.sdk.version, "version"),
    };
  }
  return out;
}
