CREATE TABLE `told_steps` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`shape` text NOT NULL,
	`step` text NOT NULL,
	`run_state` text NOT NULL,
	`calls` integer NOT NULL,
	`next_call_id` text,
	`next_tool` text,
	`next_outcome` text,
	`next_code` text,
	`occurred_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `told_steps_project_run_idx` ON `told_steps` (`project_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `told_steps_project_code_idx` ON `told_steps` (`project_id`,`code`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `told_steps_project_tool_idx` ON `told_steps` (`project_id`,`tool`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `told_step_counts` (
	`project_id` text NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`shape` text NOT NULL,
	`step` text NOT NULL,
	`run_state` text NOT NULL,
	`calls` integer NOT NULL,
	`errors` integer NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `tool`, `code`, `release`, `shape`, `step`, `run_state`, `calls`)
);
--> statement-breakpoint
CREATE TABLE `told_stale` (
	`project_id` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `runs` ADD `unanswered_tool_uses` integer;--> statement-breakpoint
CREATE INDEX `runs_project_unanswered_idx` ON `runs` (`project_id`,`run_id`) WHERE "runs"."unanswered_tool_uses" > 0;--> statement-breakpoint
ALTER TABLE `tool_call_spans` ADD `args_hash` text;--> statement-breakpoint
ALTER TABLE `tool_call_spans` ADD `after_error` text;