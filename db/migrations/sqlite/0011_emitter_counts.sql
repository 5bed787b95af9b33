CREATE TABLE `emitter_counts` (
	`project_id` text NOT NULL,
	`service` text NOT NULL,
	`convention` text NOT NULL,
	`spans` integer NOT NULL,
	`no_call_id` integer NOT NULL,
	`no_run_id` integer NOT NULL,
	`no_attempt` integer NOT NULL,
	`no_outcome` integer NOT NULL,
	`non_ok` integer NOT NULL,
	`no_code` integer NOT NULL,
	`no_error_class` integer NOT NULL,
	`no_message` integer NOT NULL,
	`no_release` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `service`, `convention`)
);
--> statement-breakpoint
CREATE TABLE `emitter_drops` (
	`project_id` text NOT NULL,
	`service` text NOT NULL,
	`convention` text NOT NULL,
	`reason` text NOT NULL,
	`attribute` text NOT NULL,
	`spans` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `service`, `convention`, `reason`, `attribute`)
);
