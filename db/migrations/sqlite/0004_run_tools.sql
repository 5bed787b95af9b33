CREATE TABLE `run_tools` (
	`project_id` text NOT NULL,
	`tool` text NOT NULL,
	`run_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `tool`, `run_id`)
);
--> statement-breakpoint
INSERT OR IGNORE INTO `run_tools` SELECT DISTINCT `project_id`, `tool`, `run_id` FROM `tool_call_spans`;
