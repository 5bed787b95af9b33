CREATE TABLE `classification_events` (
	`project_id` text NOT NULL,
	`revision` integer NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`at` integer NOT NULL,
	`codes` text DEFAULT '[]' NOT NULL,
	PRIMARY KEY(`project_id`, `revision`)
);
