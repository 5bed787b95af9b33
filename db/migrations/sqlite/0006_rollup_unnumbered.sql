ALTER TABLE `span_rollups_6h` ADD `unnumbered` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `span_rollups_hourly` ADD `unnumbered` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill from spans stored before this migration (only sources without attempt numbers have any).
UPDATE `span_rollups_hourly` AS r SET `unnumbered` = x.n FROM (
  SELECT `project_id` AS p, (`started_at` / 3600000) * 3600000 AS h, `tool` AS t, coalesce(`code`, '') AS c, coalesce(`outcome`, '') AS o,
    coalesce(`error_class`, '') AS e, coalesce(`release`, '') AS rl, coalesce(`service`, '') AS s, count(*) AS n
  FROM `tool_call_spans` WHERE `attempt` IS NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
) AS x WHERE r.`project_id` = x.p AND r.`hour` = x.h AND r.`tool` = x.t AND r.`code` = x.c AND r.`outcome` = x.o
  AND r.`error_class` = x.e AND r.`release` = x.rl AND r.`service` = x.s;
--> statement-breakpoint
UPDATE `span_rollups_6h` AS r SET `unnumbered` = x.n FROM (
  SELECT `project_id` AS p, (`hour` / 21600000) * 21600000 AS h, `tool` AS t, `code` AS c, `outcome` AS o, `error_class` AS e,
    `release` AS rl, `service` AS s, sum(`unnumbered`) AS n
  FROM `span_rollups_hourly` WHERE `unnumbered` > 0 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
) AS x WHERE r.`project_id` = x.p AND r.`hour` = x.h AND r.`tool` = x.t AND r.`code` = x.c AND r.`outcome` = x.o
  AND r.`error_class` = x.e AND r.`release` = x.rl AND r.`service` = x.s;
