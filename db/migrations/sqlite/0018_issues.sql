CREATE TABLE `issues` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`state` text NOT NULL,
	`resolve_mode` text,
	`resolve_release` text,
	`resolved_at` integer,
	`ignore_mode` text,
	`ignore_limit` integer,
	`assignee_user_id` text,
	`failures` integer NOT NULL,
	`unrecovered` integer NOT NULL,
	`retries` integer NOT NULL,
	`wait_ms` integer NOT NULL,
	`runs` integer NOT NULL,
	`worst_hour` integer NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issues_project_tool_code_idx` ON `issues` (`project_id`,`tool`,`code`);--> statement-breakpoint
CREATE INDEX `issues_project_last_seen_idx` ON `issues` (`project_id`,`last_seen`);--> statement-breakpoint
CREATE TABLE `issue_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`at` integer NOT NULL,
	`actor_user_id` text,
	`actor_label` text NOT NULL,
	`kind` text NOT NULL,
	`detail` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `issue_events_issue_idx` ON `issue_events` (`project_id`,`issue_id`,`id`);--> statement-breakpoint
CREATE TABLE `issue_hours` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`hour` integer NOT NULL,
	`failures` integer NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `hour`)
);
--> statement-breakpoint
CREATE TABLE `issue_releases` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`release` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`failures` integer NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `release`)
);
--> statement-breakpoint
CREATE TABLE `issue_runs` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`run_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `run_id`)
);
--> statement-breakpoint
CREATE INDEX `issue_runs_project_run_idx` ON `issue_runs` (`project_id`,`run_id`);