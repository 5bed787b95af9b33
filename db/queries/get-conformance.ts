import { codeSourceCounts } from "../classify/code-sources";
import { EMITTER_FIELDS, type Conformance, type ConformanceEmitter, type EmitterField, type Gap } from "@/lib/contracts/conformance";
import { dropFix, fieldDerivation, fieldFix } from "@/lib/ingest/otlp/conventions/fix-hints";
import type { Executor } from "../client";

const gap = (missing: number, of: number): Gap => ({ missing, of, share: of === 0 ? null : missing / of });

interface CountsRow {
  source: string;
  spans: number;
  noOutcome: number;
  nonOk: number;
  noCode: number;
  noAttempt: number;
  noRelease: number;
}

// Not carried by the span (`no_*`), and of those the ones Faultline derived; the rest are unknown.
type EmitterRow = { service: string; convention: string; spans: number; nonOk: number } & Record<EmitterField, number> & Record<DerivableField, number>;
const DERIVABLE = ["callId", "runId", "attempt"] as const;
type DerivableField = `derived_${(typeof DERIVABLE)[number]}`;
const derivedOf = (row: EmitterRow, field: EmitterField): number =>
  (DERIVABLE as readonly string[]).includes(field) ? row[`derived_${field as (typeof DERIVABLE)[number]}`] : 0;

interface DropRow {
  service: string;
  convention: string;
  reason: string;
  attribute: string;
  spans: number;
  lastSeen: number;
}

// Code, class and message only make sense for a span that did not succeed.
const AMONG_NON_OK = new Set<EmitterField>(["code", "errorClass", "message"]);

/**
 * Per input format, the share of a project's tool spans that lack an outcome, a code (among non-ok
 * spans), an attempt number or a release; and per emitter (service + convention), per field, how many
 * spans were derived by Faultline (and how) and how many miss it, with the attribute that would
 * supply it and where in that emitter's SDK, only where sending it would change what is stored; plus
 * the tool-like spans it dropped and why. All from counters kept at ingest (a few rows per project),
 * except where stored failures' codes came from (emitter, rules, pack, none), counted from raw data.
 */
export async function getConformance(db: Executor, params: { project: string }): Promise<Conformance> {
  // Every ORDER BY is the table's key: total.
  const [rows, emitterRows, dropRows, codeSources] = await Promise.all([
    db.all<CountsRow>(
      `SELECT source, spans, no_outcome AS "noOutcome", non_ok AS "nonOk", no_code AS "noCode", no_attempt AS "noAttempt",
         no_release AS "noRelease"
       FROM conformance_counts WHERE project_id = ? ORDER BY source`,
      [params.project],
    ),
    db.all<EmitterRow>(
      `SELECT service, convention, spans, non_ok AS "nonOk", no_call_id AS "callId", no_run_id AS "runId", no_attempt AS attempt,
         no_outcome AS outcome, no_code AS code, no_error_class AS "errorClass", no_message AS message, no_release AS release,
         derived_call_id AS "derived_callId", derived_run_id AS "derived_runId", derived_attempt AS "derived_attempt"
       FROM emitter_counts WHERE project_id = ? ORDER BY service, convention`,
      [params.project],
    ),
    db.all<DropRow>(
      `SELECT service, convention, reason, attribute, spans, last_seen AS "lastSeen"
       FROM emitter_drops WHERE project_id = ? ORDER BY service, convention, reason, attribute`,
      [params.project],
    ),
    codeSourceCounts(db, params.project),
  ]);
  return {
    project: params.project,
    sources: rows.map((r) => ({
      source: r.source,
      spans: r.spans,
      outcome: gap(r.noOutcome, r.spans),
      code: gap(r.noCode, r.nonOk),
      attempt: gap(r.noAttempt, r.spans),
      release: gap(r.noRelease, r.spans),
    })),
    emitters: mergeEmitters(emitterRows, dropRows),
    codeSources,
  };
}

/** One entry per (service, convention) that stored or dropped spans, ordered by service then convention. */
function mergeEmitters(counts: readonly EmitterRow[], drops: readonly DropRow[]): ConformanceEmitter[] {
  const byKey = new Map<string, ConformanceEmitter>();
  const entry = (service: string, convention: string, spans: number, nonOk: number, notSent: (f: EmitterField) => number, derived: (f: EmitterField) => number) => ({
    service: service === "" ? null : service,
    convention,
    spans,
    fields: EMITTER_FIELDS.map((field) => {
      const missing = notSent(field) - derived(field);
      return {
        field,
        gap: gap(missing, AMONG_NON_OK.has(field) ? nonOk : spans),
        derived: derived(field),
        derivation: fieldDerivation(convention, field),
        // Advice only where it changes what is stored: a derived value is what sending it would give.
        fix: missing > 0 ? fieldFix(convention, field) : null,
      };
    }),
    drops: [],
  });
  for (const c of counts) byKey.set(`${c.service}\u0000${c.convention}`, entry(c.service, c.convention, c.spans, c.nonOk, (f) => c[f], (f) => derivedOf(c, f)));
  for (const d of drops) {
    const key = `${d.service}\u0000${d.convention}`;
    const e = byKey.get(key) ?? entry(d.service, d.convention, 0, 0, () => 0, () => 0);
    byKey.set(key, e);
    const attribute = d.attribute === "" ? null : d.attribute;
    e.drops.push({ reason: d.reason, attribute, spans: d.spans, lastSeen: d.lastSeen, fix: dropFix(d.reason, attribute) });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}
