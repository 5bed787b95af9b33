-- What a span shares with its emitter (tool_version, release, service, environment, sdk_name,
-- sdk_version, source) moves to one `span_emitters` row per distinct combination, referenced by
-- `tool_call_spans.emitter_id` (docs/ingest-performance.md, "Storage per span"). The key is the values
-- as a JSON array, as ingest writes it (JSON.stringify): NULL and '' stay distinct under the unique index.
CREATE TABLE `span_emitters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`key` text NOT NULL,
	`tool_version` text,
	`release` text,
	`service` text,
	`environment` text,
	`sdk_name` text,
	`sdk_version` text,
	`source` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `span_emitters_project_key_uq` ON `span_emitters` (`project_id`,`key`);
--> statement-breakpoint
INSERT INTO `span_emitters` (`project_id`, `key`, `tool_version`, `release`, `service`, `environment`, `sdk_name`, `sdk_version`, `source`)
SELECT `project_id`, json_array(`tool_version`, `release`, `service`, `environment`, `sdk_name`, `sdk_version`, `source`),
	`tool_version`, `release`, `service`, `environment`, `sdk_name`, `sdk_version`, `source`
FROM `tool_call_spans`
GROUP BY `project_id`, `tool_version`, `release`, `service`, `environment`, `sdk_name`, `sdk_version`, `source`
ORDER BY min(`pk`);
--> statement-breakpoint
-- The span table is rebuilt rather than altered column by column (each DROP COLUMN rewrites every row):
-- one pass, keeping every pk (the text-search index and the drift fold's watermarks refer to them) and
-- the table's autoincrement counter; its indexes and text-search triggers are made again below.
CREATE TABLE `__new_tool_call_spans` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`span_id` text NOT NULL,
	`trace_id` text,
	`parent_span_id` text,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`attempt` integer,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	`outcome` text,
	`code` text,
	`error_class` text,
	`retryable` integer,
	`retry_after_ms` integer,
	`backoff_ms` integer,
	`decision` text,
	`permitted` integer,
	`abandoned` integer,
	`message` text,
	`received_at` integer NOT NULL,
	`derived` text,
	`args_hash` blob,
	`after_error` text,
	`started_sub_ns` integer,
	`emitter_id` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_tool_call_spans` (`pk`, `project_id`, `span_id`, `trace_id`, `parent_span_id`, `run_id`, `call_id`, `tool`, `attempt`,
	`started_at`, `ended_at`, `outcome`, `code`, `error_class`, `retryable`, `retry_after_ms`, `backoff_ms`, `decision`, `permitted`, `abandoned`,
	`message`, `received_at`, `derived`, `args_hash`, `after_error`, `started_sub_ns`, `emitter_id`)
SELECT s.`pk`, s.`project_id`, s.`span_id`, s.`trace_id`, s.`parent_span_id`, s.`run_id`, s.`call_id`, s.`tool`, s.`attempt`,
	s.`started_at`, s.`ended_at`, s.`outcome`, s.`code`, s.`error_class`, s.`retryable`, s.`retry_after_ms`, s.`backoff_ms`, s.`decision`, s.`permitted`, s.`abandoned`,
	s.`message`, s.`received_at`, s.`derived`, s.`args_hash`, s.`after_error`, s.`started_sub_ns`, e.`id`
FROM `tool_call_spans` s
JOIN `span_emitters` e ON e.`project_id` = s.`project_id`
	AND e.`key` = json_array(s.`tool_version`, s.`release`, s.`service`, s.`environment`, s.`sdk_name`, s.`sdk_version`, s.`source`)
ORDER BY s.`pk`;
--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = (SELECT o.`seq` FROM `sqlite_sequence` o WHERE o.`name` = 'tool_call_spans')
WHERE `name` = '__new_tool_call_spans' AND `seq` < (SELECT o.`seq` FROM `sqlite_sequence` o WHERE o.`name` = 'tool_call_spans');
--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_tool_call_spans', `seq` FROM `sqlite_sequence`
WHERE `name` = 'tool_call_spans' AND NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = '__new_tool_call_spans');
--> statement-breakpoint
DROP TABLE `tool_call_spans`;
--> statement-breakpoint
ALTER TABLE `__new_tool_call_spans` RENAME TO `tool_call_spans`;
--> statement-breakpoint
CREATE UNIQUE INDEX `spans_project_span_uq` ON `tool_call_spans` (`project_id`,`span_id`);
--> statement-breakpoint
CREATE INDEX `spans_project_run_idx` ON `tool_call_spans` (`project_id`,`run_id`);
--> statement-breakpoint
CREATE INDEX `spans_project_tool_time_idx` ON `tool_call_spans` (`project_id`,`tool`,`started_at`);
--> statement-breakpoint
CREATE INDEX `spans_project_code_time_idx` ON `tool_call_spans` (`project_id`,`code`,`started_at`) WHERE "tool_call_spans"."code" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `spans_project_failed_time_idx` ON `tool_call_spans` (`project_id`,`tool`,`started_at`) WHERE "tool_call_spans"."outcome" IS NOT NULL AND "tool_call_spans"."outcome" NOT IN ('ok', 'cancelled');
--> statement-breakpoint
CREATE INDEX `spans_project_call_idx` ON `tool_call_spans` (`project_id`,`call_id`);
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_ai` AFTER INSERT ON `tool_call_spans` WHEN new.`message` IS NOT NULL BEGIN
  INSERT INTO `span_message_fts` (rowid, `message`) VALUES (new.`pk`, new.`message`);
END;
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_ad` AFTER DELETE ON `tool_call_spans` WHEN old.`message` IS NOT NULL BEGIN
  INSERT INTO `span_message_fts` (`span_message_fts`, rowid, `message`) VALUES ('delete', old.`pk`, old.`message`);
END;
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_au` AFTER UPDATE OF `message` ON `tool_call_spans` BEGIN
  INSERT INTO `span_message_fts` (`span_message_fts`, rowid, `message`) SELECT 'delete', old.`pk`, old.`message` WHERE old.`message` IS NOT NULL;
  INSERT INTO `span_message_fts` (rowid, `message`) SELECT new.`pk`, new.`message` WHERE new.`message` IS NOT NULL;
END;
