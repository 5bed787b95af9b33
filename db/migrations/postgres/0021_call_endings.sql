-- Ended tool calls per hour, tool and kind of ending, read by the SLO pages (db/schema/call-endings.ts),
-- and a partial index of failed attempts for the failures that spent an SLO's budget.
-- Backfilled from the stored spans with the SLO reads' own definition of a call's ending
-- (db/slos/call-ending-sql.ts; keep the two alike), so the SLO numbers do not change when reads move to it.
CREATE TABLE "call_endings_hourly" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"failed" bigint NOT NULL,
	"declined" bigint NOT NULL,
	"recovered" bigint NOT NULL,
	"calls" bigint NOT NULL,
	CONSTRAINT "call_endings_hourly_pk" PRIMARY KEY("project_id","hour","tool","failed","declined","recovered")
);
--> statement-breakpoint
CREATE INDEX "spans_project_failed_time_idx" ON "tool_call_spans" USING btree ("project_id","tool","started_at") WHERE "tool_call_spans"."outcome" IS NOT NULL AND "tool_call_spans"."outcome" NOT IN ('ok', 'cancelled');
--> statement-breakpoint
INSERT INTO call_endings_hourly (project_id, hour, tool, failed, declined, recovered, calls)
SELECT e.project_id, e.hour, e.tool, e.failed, e.declined, e.recovered, count(*) FROM (
  SELECT s.project_id, s.tool, s.started_at - (s.started_at % 3600000) AS hour,
    CASE WHEN s.outcome IS NOT NULL AND s.outcome NOT IN ('ok', 'cancelled') THEN 1 ELSE 0 END AS failed,
    CASE WHEN s.outcome = 'declined' THEN 1 ELSE 0 END AS declined,
    CASE WHEN s.outcome IS NOT NULL AND s.outcome NOT IN ('ok', 'cancelled')
      AND EXISTS (SELECT 1 FROM told_steps t WHERE t.project_id = s.project_id AND t.run_id = s.run_id AND t.call_id = s.call_id AND t.step IN ('recovered', 'replaced'))
      THEN 1 ELSE 0 END AS recovered
  FROM tool_call_spans s
  WHERE (s.decision IS NULL OR s.decision <> 'retried')
    AND (s.outcome = 'ok' OR NOT EXISTS (SELECT 1 FROM tool_call_spans n WHERE n.project_id = s.project_id AND n.run_id = s.run_id AND n.call_id = s.call_id AND n.attempt > s.attempt))
) e
GROUP BY e.project_id, e.hour, e.tool, e.failed, e.declined, e.recovered;
