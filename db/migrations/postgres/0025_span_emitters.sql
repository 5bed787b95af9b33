-- What a span shares with its emitter (tool_version, release, service, environment, sdk_name,
-- sdk_version, source) moves to one `span_emitters` row per distinct combination, referenced by
-- `tool_call_spans.emitter_id` (docs/ingest-performance.md, "Storage per span"). The key is the values
-- as a JSON array, as ingest writes it (JSON.stringify): NULL and '' stay distinct under the unique index.
CREATE TABLE "span_emitters" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"key" text NOT NULL,
	"tool_version" text,
	"release" text,
	"service" text,
	"environment" text,
	"sdk_name" text,
	"sdk_version" text,
	"source" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "span_emitters" ADD CONSTRAINT "span_emitters_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "span_emitters_project_key_uq" ON "span_emitters" USING btree ("project_id","key");
--> statement-breakpoint
INSERT INTO "span_emitters" ("project_id", "key", "tool_version", "release", "service", "environment", "sdk_name", "sdk_version", "source")
SELECT "project_id", array_to_json(ARRAY["tool_version", "release", "service", "environment", "sdk_name", "sdk_version", "source"])::text,
	"tool_version", "release", "service", "environment", "sdk_name", "sdk_version", "source"
FROM "tool_call_spans"
GROUP BY "project_id", "tool_version", "release", "service", "environment", "sdk_name", "sdk_version", "source"
ORDER BY min("pk");
--> statement-breakpoint
-- The message vector goes first, so that setting emitter_id below does not compute it again for every row;
-- it comes back at the end, NULL for a span without a message (an empty vector took 5 bytes).
DROP INDEX "spans_message_tsv_idx";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "message_tsv";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" ADD COLUMN "emitter_id" bigint;
--> statement-breakpoint
UPDATE "tool_call_spans" s SET "emitter_id" = e."id" FROM "span_emitters" e
WHERE e."project_id" = s."project_id"
	AND e."key" = array_to_json(ARRAY[s."tool_version", s."release", s."service", s."environment", s."sdk_name", s."sdk_version", s."source"])::text;
--> statement-breakpoint
ALTER TABLE "tool_call_spans" ALTER COLUMN "emitter_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "tool_version";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "release";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "service";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "environment";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "sdk_name";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "sdk_version";
--> statement-breakpoint
ALTER TABLE "tool_call_spans" DROP COLUMN "source";
--> statement-breakpoint
-- Adding a stored generated column rewrites every partition, which also clears the dropped columns'
-- values out of the rows (a DROP COLUMN alone leaves them in place until a row is written again).
ALTER TABLE "tool_call_spans" ADD COLUMN "message_tsv" tsvector GENERATED ALWAYS AS (CASE WHEN "message" IS NULL THEN NULL ELSE to_tsvector('simple'::regconfig, regexp_replace("message", '[^[:alnum:]]+', ' ', 'g')) END) STORED;
--> statement-breakpoint
CREATE INDEX "spans_message_tsv_idx" ON "tool_call_spans" USING gin ("message_tsv");
