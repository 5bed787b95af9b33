CREATE TABLE `trace_links` (
	`project_id` text PRIMARY KEY NOT NULL,
	`preset` text NOT NULL,
	`template` text NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `saved_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`page` text NOT NULL,
	`name` text NOT NULL,
	`params` text NOT NULL,
	`shared` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_views_owner_name_uq` ON `saved_views` (`project_id`,`owner_id`,`page`,`name`);--> statement-breakpoint
CREATE INDEX `saved_views_project_page_idx` ON `saved_views` (`project_id`,`page`);--> statement-breakpoint
ALTER TABLE `runs` ADD `trace_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `span_id` text;