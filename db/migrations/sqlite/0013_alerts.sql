CREATE TABLE `alert_receivers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`format` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `alert_receivers_project_idx` ON `alert_receivers` (`project_id`);--> statement-breakpoint
CREATE TABLE `alert_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`params` text NOT NULL,
	`receiver_id` integer,
	`muted_at` integer,
	`snoozed_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`receiver_id`) REFERENCES `alert_receivers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `alert_rules_project_idx` ON `alert_rules` (`project_id`);--> statement-breakpoint
CREATE TABLE `alert_states` (
	`rule_id` integer NOT NULL,
	`key` text NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`status` text NOT NULL,
	`value` text NOT NULL,
	`fired_at` integer NOT NULL,
	`resolved_at` integer,
	PRIMARY KEY(`rule_id`, `key`),
	FOREIGN KEY (`rule_id`) REFERENCES `alert_rules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `alert_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`rule_id` integer NOT NULL,
	`rule_name` text NOT NULL,
	`receiver_id` integer,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`delivered_at` integer,
	`gave_up_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `alert_outbox_project_idx` ON `alert_outbox` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `alert_outbox_due_idx` ON `alert_outbox` (`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `alert_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`outbox_id` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`http_status` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	FOREIGN KEY (`outbox_id`) REFERENCES `alert_outbox`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_attempts_outbox_idx` ON `alert_attempts` (`outbox_id`);--> statement-breakpoint
-- Projects that exist before alerts get the same default rules a new project gets (lib/alerts/default-rules.ts),
-- created now: a new-code rule fires for codes first seen after it was created, not for every code already known.
INSERT INTO alert_rules (project_id, name, kind, params, created_at, updated_at) SELECT id, 'New error code for a tool', 'new_code', '{"kind":"new_code"}', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM projects ORDER BY id;--> statement-breakpoint
INSERT INTO alert_rules (project_id, name, kind, params, created_at, updated_at) SELECT id, 'Critical drift finding', 'drift', '{"kind":"drift","minSeverity":"critical"}', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM projects ORDER BY id;
