import { isCancellation } from "../common/abort";
import { DEFAULT_CODES } from "../errors/default-codes";
import { isToolError, unmappedFailure } from "../errors/guards";
import type { ToolError } from "../errors/tool-error";
import { describeThrown } from "./describe";
import { applyRule, type ToolErrorRule } from "./rules";
import { readStatus } from "./status";

/** Any class usable as a rule key (constructors of thrown things). */
export type ErrorClassKey = abstract new (...args: never[]) => unknown;

/** Options of {@link ToolErrorMap}. */
export interface ToolErrorMapOptions {
  /** Rules by HTTP status, consulted only when no class rule matched. */
  statuses?: Readonly<Record<number, ToolErrorRule>> | ReadonlyMap<number, ToolErrorRule>;
}

/**
 * Declarative translation of library exceptions into the taxonomy.
 *
 * - An error already in the taxonomy is returned as is (same object).
 * - Cancellation (`AbortError`, or anything thrown while `signal` is aborted) is re-thrown.
 * - Class rules: the most specific class on the prototype chain wins.
 * - Status rules: only when no class rule matched (see {@link readStatus}).
 * - Otherwise a permanent `unmapped_failure`: guessing that a repeat is safe is how a booking is paid twice.
 * Upstream text is scrubbed as it is translated. Hostile thrown values (throwing getters, Proxies,
 * a throwing `toString`) never make `classify` throw: whatever cannot be read is left out.
 */
export class ToolErrorMap {
  private readonly byClass: Map<unknown, ToolErrorRule>;
  private readonly byStatus: Map<number, ToolErrorRule>;

  constructor(
    rules: Iterable<readonly [ErrorClassKey, ToolErrorRule]> = [],
    options: ToolErrorMapOptions = {},
  ) {
    this.byClass = new Map(Array.from(rules, ([cls, rule]) => [cls.prototype, rule] as const));
    const statuses = options.statuses;
    this.byStatus =
      statuses instanceof Map
        ? new Map(statuses)
        : new Map(Object.entries(statuses ?? {}).map(([k, v]) => [Number(k), v as ToolErrorRule] as const));
  }

  /** Translates `error` raised by `tool`. Throws `error` back when it is a cancellation. */
  classify(error: unknown, context: { tool: string; signal?: AbortSignal }): ToolError {
    if (isToolError(error)) return error;
    if (isCancellation(error, context.signal)) throw error;
    const detail = describeThrown(error);
    const rule = this.ruleFor(error);
    if (rule) return applyRule(rule, context.tool, detail, error);
    return unmappedFailure(context.tool, DEFAULT_CODES.unmapped, detail, error);
  }

  /** The rule that would apply to `error`, if any. */
  ruleFor(error: unknown): ToolErrorRule | undefined {
    if (typeof error === "object" && error !== null) {
      try {
        for (let proto = Object.getPrototypeOf(error); proto !== null; proto = Object.getPrototypeOf(proto)) {
          const rule = this.byClass.get(proto);
          if (rule) return rule;
        }
      } catch {
        // A Proxy whose getPrototypeOf trap throws matches no class rule.
      }
    }
    if (this.byStatus.size === 0) return undefined;
    const status = readStatus(error);
    return status === undefined ? undefined : this.byStatus.get(status);
  }
}
