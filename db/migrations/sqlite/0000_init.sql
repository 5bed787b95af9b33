CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_prefix_uq` ON `api_keys` (`prefix`);--> statement-breakpoint
CREATE INDEX `api_keys_project_idx` ON `api_keys` (`project_id`);--> statement-breakpoint
CREATE TABLE `runs` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`record_id` text NOT NULL,
	`run_id` text NOT NULL,
	`agent` text NOT NULL,
	`release` text,
	`service` text,
	`environment` text,
	`sdk_name` text,
	`sdk_version` text,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`state` text NOT NULL,
	`deadline_at` integer,
	`max_tool_attempts` integer,
	`error` text,
	`source` text DEFAULT 'native' NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runs_project_run_uq` ON `runs` (`project_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `runs_project_started_idx` ON `runs` (`project_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `tool_call_spans` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`span_id` text NOT NULL,
	`trace_id` text,
	`parent_span_id` text,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`tool_version` text,
	`release` text,
	`service` text,
	`environment` text,
	`sdk_name` text,
	`sdk_version` text,
	`attempt` integer,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	`outcome` text,
	`code` text,
	`error_class` text,
	`retryable` integer,
	`retry_after_ms` integer,
	`backoff_ms` integer,
	`decision` text,
	`permitted` integer,
	`abandoned` integer,
	`message` text,
	`source` text DEFAULT 'native' NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `spans_project_span_uq` ON `tool_call_spans` (`project_id`,`span_id`);--> statement-breakpoint
CREATE INDEX `spans_project_run_idx` ON `tool_call_spans` (`project_id`,`run_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `spans_project_tool_time_idx` ON `tool_call_spans` (`project_id`,`tool`,`started_at`);--> statement-breakpoint
CREATE INDEX `spans_project_code_time_idx` ON `tool_call_spans` (`project_id`,`code`,`started_at`) WHERE "tool_call_spans"."code" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `tool_errors` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`tool_version` text,
	`release` text,
	`service` text,
	`environment` text,
	`code` text,
	`error_class` text,
	`retryable` integer,
	`attempts` integer,
	`decision` text,
	`told` text,
	`occurred_at` integer NOT NULL,
	`source` text DEFAULT 'native' NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tool_errors_project_event_uq` ON `tool_errors` (`project_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `tool_errors_project_run_idx` ON `tool_errors` (`project_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `tool_errors_project_time_idx` ON `tool_errors` (`project_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `span_rollups_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`outcome` text NOT NULL,
	`error_class` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`spans` integer NOT NULL,
	`first_attempts` integer NOT NULL,
	`second_attempts` integer NOT NULL,
	`retry_attempts` integer NOT NULL,
	`max_attempt` integer NOT NULL,
	`retry_after_count` integer NOT NULL,
	`retry_after_sum_ms` integer NOT NULL,
	`backoff_count` integer NOT NULL,
	`backoff_sum_ms` integer NOT NULL,
	`failed_closed` integer NOT NULL,
	`duration_sum_ms` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`)
);
--> statement-breakpoint
CREATE INDEX `span_rollups_project_tool_hour_idx` ON `span_rollups_hourly` (`project_id`,`tool`,`hour`);--> statement-breakpoint
CREATE TABLE `delay_histograms_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`kind` text NOT NULL,
	`bucket_ms` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `release`, `service`, `kind`, `bucket_ms`)
);
--> statement-breakpoint
CREATE TABLE `error_rollups_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`error_class` text NOT NULL,
	`decision` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`errors` integer NOT NULL,
	`attempts_sum` integer NOT NULL,
	`retryable_count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `error_class`, `decision`, `release`, `service`)
);
--> statement-breakpoint
CREATE TABLE `codes` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`tool_version` text NOT NULL,
	`error_class` text NOT NULL,
	`retryable` integer NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`spans` integer NOT NULL,
	`errors` integer NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `tool`, `release`, `tool_version`, `error_class`, `retryable`)
);
--> statement-breakpoint
CREATE TABLE `run_stats` (
	`project_id` text NOT NULL,
	`run_id` text NOT NULL,
	`attempts` integer NOT NULL,
	`calls` integer NOT NULL,
	`retries` integer NOT NULL,
	`failed_attempts` integer NOT NULL,
	`declined` integer NOT NULL,
	`refused` integer NOT NULL,
	`errors` integer NOT NULL,
	`first_started_at` integer NOT NULL,
	`last_ended_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `run_id`)
);
--> statement-breakpoint
CREATE INDEX `run_stats_project_started_idx` ON `run_stats` (`project_id`,`first_started_at`);