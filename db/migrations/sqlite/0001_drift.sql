CREATE TABLE `drift_state` (
	`project_id` text PRIMARY KEY NOT NULL,
	`span_watermark` integer DEFAULT 0 NOT NULL,
	`error_watermark` integer DEFAULT 0 NOT NULL,
	`refreshed_at` integer DEFAULT 0 NOT NULL,
	`findings_computed_at` integer
);
--> statement-breakpoint
CREATE TABLE `drift_signatures` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`release_kind` text NOT NULL,
	`spans` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`recovered` integer DEFAULT 0 NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`example_run_ids` text DEFAULT '[]' NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `tool`, `release`)
);
--> statement-breakpoint
CREATE TABLE `drift_counts` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`basis` text NOT NULL,
	`dim` text NOT NULL,
	`value` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `tool`, `release`, `basis`, `dim`, `value`)
);
--> statement-breakpoint
CREATE TABLE `drift_calls` (
	`project_id` text NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`attempt` integer,
	`started_at` integer NOT NULL,
	`recovered` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `run_id`, `call_id`, `code`)
);
--> statement-breakpoint
CREATE TABLE `drift_tool_releases` (
	`project_id` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`release_kind` text NOT NULL,
	`first_attempts` integer DEFAULT 0 NOT NULL,
	`spans` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`example_run_ids` text DEFAULT '[]' NOT NULL,
	PRIMARY KEY(`project_id`, `tool`, `release`)
);
--> statement-breakpoint
CREATE TABLE `drift_findings` (
	`project_id` text NOT NULL,
	`finding_id` text NOT NULL,
	`rank` integer NOT NULL,
	`kind` text NOT NULL,
	`severity` text NOT NULL,
	`verdict` text NOT NULL,
	`code` text NOT NULL,
	`renamed_to` text,
	`tool` text NOT NULL,
	`from_release` text NOT NULL,
	`to_release` text NOT NULL,
	`body` text NOT NULL,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `finding_id`)
);
--> statement-breakpoint
CREATE INDEX `drift_findings_rank_idx` ON `drift_findings` (`project_id`,`rank`);