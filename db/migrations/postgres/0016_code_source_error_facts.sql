CREATE TABLE "error_facts" (
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"run_id" text NOT NULL,
	"occurred_at" bigint NOT NULL,
	"rule_id" text,
	"rule_version" bigint,
	"prior" text,
	"revision" bigint NOT NULL,
	CONSTRAINT "error_facts_pk" PRIMARY KEY("project_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "drift_signatures" ADD COLUMN "ruled" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "error_facts_run_idx" ON "error_facts" USING btree ("project_id","run_id");--> statement-breakpoint
CREATE INDEX "error_facts_revision_idx" ON "error_facts" USING btree ("project_id","revision");--> statement-breakpoint
-- Message shapes version 2 (lib/drift/told-shape.ts) mask short letter-digit ids whole: the failure group keys of
-- unclassified failures are re-derived by the re-classification job, which takes every row behind its project's revision.
UPDATE "failure_facts" SET "revision" = -1 WHERE "group_key" IS NOT NULL;
