/** The emitter's own fields a rule replaced (failure_facts / error_facts `prior`), as stored. */
interface Prior {
  errorClass?: string | null;
  retryable?: boolean | null;
  outcome?: string | null;
}

/**
 * Whether classification set the code: a project rule or the built-in pack (`builtin.*`), as opposed
 * to the emitter. Both change with the project's classification config (an edit, a reorder, a pack
 * switch), so drift counts both as `ruled`.
 */
export const setByRule = (ruleId: string | null): boolean => ruleId !== null;

/**
 * Which of a row's class, retryable and outcome its emitter said, as drift counts them: all of them
 * when no rule set its code; when one did, only those the rule left as the emitter sent them. What a
 * rule set is the rule's wording, not the tool's behaviour, so editing the rule changes no meaning.
 */
export function emitterSaid(row: { rule_id: string | null; prior: string | null; error_class: string | null; retryable: number | null; outcome?: string | null }): {
  errorClass: boolean;
  retryable: boolean;
  outcome: boolean;
} {
  if (row.rule_id === null || row.prior === null) return { errorClass: true, retryable: true, outcome: true };
  let prior: Prior;
  try {
    prior = JSON.parse(row.prior) as Prior;
  } catch {
    return { errorClass: false, retryable: false, outcome: false };
  }
  const retryable = row.retryable === null ? null : Number(row.retryable) === 1;
  return {
    errorClass: (prior.errorClass ?? null) === row.error_class,
    retryable: (prior.retryable ?? null) === retryable,
    outcome: (prior.outcome ?? null) === (row.outcome ?? null),
  };
}
