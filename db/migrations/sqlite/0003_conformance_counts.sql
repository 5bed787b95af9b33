CREATE TABLE `conformance_counts` (
	`project_id` text NOT NULL,
	`source` text NOT NULL,
	`spans` integer NOT NULL,
	`no_outcome` integer NOT NULL,
	`non_ok` integer NOT NULL,
	`no_code` integer NOT NULL,
	`no_attempt` integer NOT NULL,
	`no_release` integer NOT NULL,
	PRIMARY KEY(`project_id`, `source`)
);
--> statement-breakpoint
-- Backfill from the spans stored before this migration.
INSERT INTO `conformance_counts` SELECT `project_id`, `source`, count(*), sum(`outcome` IS NULL),
  sum(`outcome` IS NOT NULL AND `outcome` <> 'ok'), sum(`outcome` IS NOT NULL AND `outcome` <> 'ok' AND `code` IS NULL),
  sum(`attempt` IS NULL), sum(`release` IS NULL)
  FROM `tool_call_spans` GROUP BY 1, 2;
