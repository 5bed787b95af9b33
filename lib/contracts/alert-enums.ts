/** Rule kinds, receiver formats and notification states shared by the schema, the contracts and the evaluator. */
export const ALERT_RULE_KINDS = ["new_code", "drift", "failure_rate", "retry_storm", "refusal_spike", "failed_closed", "issue_regressed", "slo_burn"] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

/** `json` and `slack` are signed webhooks; `pagerduty` sends Events API v2 events; `email` sends mail over the server's SMTP. */
export const ALERT_RECEIVER_FORMATS = ["json", "slack", "pagerduty", "email"] as const;
export type AlertReceiverFormat = (typeof ALERT_RECEIVER_FORMATS)[number];

export const ALERT_STATUSES = ["firing", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
