CREATE TABLE `classification_rule_versions` (
	`project_id` text NOT NULL,
	`rule_id` text NOT NULL,
	`version` integer NOT NULL,
	`body` text,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `rule_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `classification_rules` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`version` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`enabled` integer NOT NULL,
	`match` text NOT NULL,
	`set_fields` text NOT NULL,
	`override_emitter` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	PRIMARY KEY(`project_id`, `id`)
);
--> statement-breakpoint
CREATE INDEX `classification_rules_order_idx` ON `classification_rules` (`project_id`,`position`);--> statement-breakpoint
CREATE TABLE `classification_state` (
	`project_id` text PRIMARY KEY NOT NULL,
	`builtin_enabled` integer NOT NULL,
	`revision` integer NOT NULL,
	`applied_revision` integer NOT NULL,
	`examined` integer NOT NULL,
	`changed` integer NOT NULL,
	`total` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `failure_facts` (
	`project_id` text NOT NULL,
	`span_id` text NOT NULL,
	`run_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`error_type` text,
	`http_status` integer,
	`attrs` text,
	`group_key` text,
	`rule_id` text,
	`rule_version` integer,
	`prior` text,
	`revision` integer NOT NULL,
	PRIMARY KEY(`project_id`, `span_id`)
);
--> statement-breakpoint
CREATE INDEX `failure_facts_group_idx` ON `failure_facts` (`project_id`,`group_key`,`started_at`) WHERE "failure_facts"."group_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `failure_facts_run_idx` ON `failure_facts` (`project_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `failure_facts_revision_idx` ON `failure_facts` (`project_id`,`revision`);