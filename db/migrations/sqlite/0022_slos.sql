CREATE TABLE `slos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`tools` text NOT NULL,
	`objective` text NOT NULL,
	`window_days` integer NOT NULL,
	`count_declines` integer NOT NULL,
	`count_recovered` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `slos_project_idx` ON `slos` (`project_id`);