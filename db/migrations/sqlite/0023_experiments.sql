CREATE TABLE `experiments` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text,
	`variants` text NOT NULL,
	`guards` text NOT NULL,
	`state` text NOT NULL,
	`winner` text,
	`stop_reason` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`stopped_at` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `experiments_project_state_idx` ON `experiments` (`project_id`,`state`);--> statement-breakpoint
ALTER TABLE `tool_errors` ADD `experiment` text;--> statement-breakpoint
ALTER TABLE `tool_errors` ADD `variant` text;--> statement-breakpoint
CREATE INDEX `tool_errors_project_experiment_idx` ON `tool_errors` (`project_id`,`experiment`,`variant`) WHERE "tool_errors"."experiment" IS NOT NULL;