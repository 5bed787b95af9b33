import { scrubText } from "../../contracts/scrub";
import { MAX_VARIANTS, MAX_WORDING_LENGTH, wordingSetSchema, type WordingEntry } from "../../contracts/wordings";
import { assignVariant } from "./assign";

/** One told wording of a code-side experiment. `weight` is its traffic share (default: an equal share). */
export interface LocalVariant {
  readonly id: string;
  readonly text: string;
  readonly weight?: number;
}

/**
 * An experiment declared in code, on an error-map rule or a raised typed error: several wordings for
 * one code, each with a stable id. The wording replaces the error's message in the told text; the
 * code, class, retryable flag and the loop's decision never change.
 */
export interface LocalExperiment {
  readonly id: string;
  readonly variants: readonly Required<LocalVariant>[];
}

/** The wording chosen for one surfaced error: the text, and the experiment arm to record (absent for a promoted winner). */
export interface ChosenWording {
  readonly text: string;
  readonly experiment?: string;
  readonly variant?: string;
}

/** Where the run loop looks up Faultline's wordings when an error is surfaced; `undefined` means "use the local map". */
export interface WordingSource {
  /** The wording set to use now. Must not throw and must not wait: it runs on the error path. */
  current(): WordingSet | undefined;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A told wording as it may leave the process: scrubbed like any told text, and bounded. */
export function boundedWording(text: string): string {
  const scrubbed = scrubText(text.trim());
  return scrubbed.length > MAX_WORDING_LENGTH ? `${scrubbed.slice(0, MAX_WORDING_LENGTH - 1)}…` : scrubbed;
}

/**
 * Declares a code-side experiment. Throws a `TypeError` for an id that is not 1–64 letters, digits,
 * `.`, `_` or `-`, for fewer than two or more than {@link MAX_VARIANTS} variants, repeated variant
 * ids, an empty text or a weight that is not a finite number ≥ 0 (all zero included): a mistake here
 * would otherwise show up as an experiment that silently never runs.
 */
export function defineExperiment(id: string, variants: readonly LocalVariant[]): LocalExperiment {
  if (!ID.test(id)) throw new TypeError(`experiment id must be 1-64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(id)}`);
  if (variants.length < 2 || variants.length > MAX_VARIANTS) throw new TypeError(`experiment ${id} needs 2 to ${MAX_VARIANTS} variants; got ${variants.length}`);
  const seen = new Set<string>();
  const out = variants.map((v) => {
    if (!ID.test(v.id)) throw new TypeError(`variant id must be 1-64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(v.id)}`);
    if (seen.has(v.id)) throw new TypeError(`experiment ${id} repeats variant ${v.id}`);
    seen.add(v.id);
    if (typeof v.text !== "string" || v.text.trim() === "") throw new TypeError(`variant ${v.id} of ${id} needs a text`);
    const weight = v.weight ?? 1;
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) throw new TypeError(`variant ${v.id} of ${id}: weight must be a finite number >= 0`);
    return Object.freeze({ id: v.id, text: boundedWording(v.text), weight });
  });
  if (out.every((v) => v.weight === 0)) throw new TypeError(`experiment ${id}: every weight is 0`);
  return Object.freeze({ id, variants: Object.freeze(out) });
}

/** What {@link chooseWording} needs to know about the surfaced error. */
export interface WordingQuery {
  readonly code: string;
  readonly tool: string;
  readonly runId: string;
  /** The experiment the rule or the typed error declared, used when Faultline has nothing for this code. */
  readonly local?: LocalExperiment | undefined;
}

/**
 * A project's wording set as Faultline delivers it (running experiments and promoted winners, per
 * code and optionally per tool). Immutable; a {@link WordingSource} of itself, so a fixed set can be
 * passed where a refreshing one is expected.
 */
export class WordingSet implements WordingSource {
  private readonly byKey: ReadonlyMap<string, WordingEntry>;

  constructor(entries: readonly WordingEntry[]) {
    const byKey = new Map<string, WordingEntry>();
    for (const e of entries) {
      const variants = e.variants.map((v) => ({ ...v, text: boundedWording(v.text) }));
      byKey.set(key(e.code, e.tool), Object.freeze({ ...e, variants }));
    }
    this.byKey = byKey;
  }

  /**
   * Parses an answer of the wording endpoint; throws a `TypeError` naming the first problem when
   * it is not one (a caller keeps its previous set then).
   */
  static parse(answer: unknown): WordingSet {
    const parsed = wordingSetSchema.safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(`not a wording set: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
    }
    return new WordingSet(parsed.data.entries);
  }

  /** This set: a fixed set never changes. */
  current(): WordingSet {
    return this;
  }

  /** The entry for `code` raised by `tool`: the tool's own entry first, then the code-wide one. */
  entryFor(code: string, tool: string): WordingEntry | undefined {
    return this.byKey.get(key(code, tool)) ?? this.byKey.get(key(code, null));
  }

  /** How many entries the set holds. */
  get size(): number {
    return this.byKey.size;
  }
}

const key = (code: string, tool: string | null) => `${tool ?? ""}\u0000${code}`;

/**
 * The wording to tell for one surfaced error, or undefined to keep the error's own message.
 * Faultline's entry wins over the code-side declaration (that is how a promoted winner reaches a
 * running agent); without one, the local experiment applies. A running experiment's variant is
 * assigned from (run id, experiment id) and recorded; a promoted winner is told to every run and
 * recorded as no experiment.
 */
export function chooseWording(set: WordingSet | undefined, q: WordingQuery): ChosenWording | undefined {
  const entry = set?.entryFor(q.code, q.tool);
  if (entry) {
    if (entry.state === "promoted") {
      const winner = entry.variants[0];
      return winner ? { text: winner.text } : undefined;
    }
    const v = assignVariant(q.runId, entry.experiment, entry.variants);
    return v ? { text: v.text, experiment: entry.experiment, variant: v.id } : undefined;
  }
  if (!q.local) return undefined;
  const v = assignVariant(q.runId, q.local.id, q.local.variants);
  return v ? { text: v.text, experiment: q.local.id, variant: v.id } : undefined;
}
