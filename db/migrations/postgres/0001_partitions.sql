-- tool_call_spans and tool_errors are RANGE partitioned by UTC day on PostgreSQL, so that retention
-- drops whole days instead of deleting rows (db/partitions/ creates the daily partitions ahead and
-- drops expired ones). drizzle-kit cannot declare partitioning, so both tables, still empty here,
-- are rebuilt with the same columns, defaults, foreign key and index names as 0000_init.
--
-- A partitioned table's primary key and unique indexes must contain the partition key:
--   * the primary key is (pk, <time>); pk still comes from one sequence, so it stays unique;
--   * the idempotency indexes gain the timestamp: spans_project_span_uq is
--     (project_id, span_id, started_at) and tool_errors_project_event_uq is
--     (project_id, event_id, occurred_at). A duplicate record (a retried batch, the same batch sent
--     to two nodes) carries the same timestamp as the original, so it still conflicts and
--     idempotency holds; ingest names these three columns in its ON CONFLICT target.
-- Rows of a day without its own partition land in the DEFAULT partition until one is created.
DROP TABLE "tool_call_spans";
--> statement-breakpoint
CREATE TABLE "tool_call_spans" (
	"pk" bigserial NOT NULL,
	"project_id" text NOT NULL,
	"span_id" text NOT NULL,
	"trace_id" text,
	"parent_span_id" text,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"tool_version" text,
	"release" text,
	"service" text,
	"environment" text,
	"sdk_name" text,
	"sdk_version" text,
	"attempt" bigint,
	"started_at" bigint NOT NULL,
	"ended_at" bigint NOT NULL,
	"outcome" text,
	"code" text,
	"error_class" text,
	"retryable" smallint,
	"retry_after_ms" bigint,
	"backoff_ms" bigint,
	"decision" text,
	"permitted" smallint,
	"abandoned" smallint,
	"message" text,
	"source" text DEFAULT 'native' NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "tool_call_spans_pkey" PRIMARY KEY ("pk", "started_at")
) PARTITION BY RANGE ("started_at");
--> statement-breakpoint
CREATE TABLE "tool_call_spans_default" PARTITION OF "tool_call_spans" DEFAULT;
--> statement-breakpoint
ALTER TABLE "tool_call_spans" ADD CONSTRAINT "tool_call_spans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "spans_project_span_uq" ON "tool_call_spans" USING btree ("project_id","span_id","started_at");
--> statement-breakpoint
CREATE INDEX "spans_project_run_idx" ON "tool_call_spans" USING btree ("project_id","run_id","started_at");
--> statement-breakpoint
CREATE INDEX "spans_project_tool_time_idx" ON "tool_call_spans" USING btree ("project_id","tool","started_at");
--> statement-breakpoint
CREATE INDEX "spans_project_code_time_idx" ON "tool_call_spans" USING btree ("project_id","code","started_at") WHERE "code" IS NOT NULL;
--> statement-breakpoint
DROP TABLE "tool_errors";
--> statement-breakpoint
CREATE TABLE "tool_errors" (
	"pk" bigserial NOT NULL,
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"tool_version" text,
	"release" text,
	"service" text,
	"environment" text,
	"code" text,
	"error_class" text,
	"retryable" smallint,
	"attempts" bigint,
	"decision" text,
	"told" text,
	"occurred_at" bigint NOT NULL,
	"source" text DEFAULT 'native' NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "tool_errors_pkey" PRIMARY KEY ("pk", "occurred_at")
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
CREATE TABLE "tool_errors_default" PARTITION OF "tool_errors" DEFAULT;
--> statement-breakpoint
ALTER TABLE "tool_errors" ADD CONSTRAINT "tool_errors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "tool_errors_project_event_uq" ON "tool_errors" USING btree ("project_id","event_id","occurred_at");
--> statement-breakpoint
CREATE INDEX "tool_errors_project_run_idx" ON "tool_errors" USING btree ("project_id","run_id");
--> statement-breakpoint
CREATE INDEX "tool_errors_project_time_idx" ON "tool_errors" USING btree ("project_id","occurred_at");
