ALTER TABLE `tool_call_spans` ADD `started_sub_ns` integer;--> statement-breakpoint
ALTER TABLE `emitter_counts` ADD `derived_call_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `emitter_counts` ADD `derived_run_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `emitter_counts` ADD `derived_attempt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Counters kept before this migration counted a derived call id or run id as not carried: only OTLP
-- derives them, and it always does when the span lacks one, so all of those were derived. Attempts:
-- spans of conventions with no attempt attribute of their own were numbered by Faultline.
UPDATE emitter_counts SET derived_call_id = no_call_id, derived_run_id = no_run_id,
  derived_attempt = CASE WHEN convention IN ('gen_ai', 'openinference', 'traceloop', 'vercel_ai') THEN no_attempt ELSE 0 END;
