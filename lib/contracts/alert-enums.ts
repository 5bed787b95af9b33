/** Rule kinds, receiver formats and notification states shared by the schema, the contracts and the evaluator. */
export const ALERT_RULE_KINDS = ["new_code", "drift", "failure_rate", "retry_storm", "refusal_spike", "failed_closed"] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const ALERT_RECEIVER_FORMATS = ["json", "slack"] as const;
export type AlertReceiverFormat = (typeof ALERT_RECEIVER_FORMATS)[number];

export const ALERT_STATUSES = ["firing", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
