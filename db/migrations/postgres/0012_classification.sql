CREATE TABLE "classification_rule_versions" (
	"project_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"version" bigint NOT NULL,
	"body" text,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "classification_rule_versions_pk" PRIMARY KEY("project_id","rule_id","version")
);
--> statement-breakpoint
CREATE TABLE "classification_rules" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"version" bigint NOT NULL,
	"position" bigint NOT NULL,
	"name" text NOT NULL,
	"enabled" bigint NOT NULL,
	"match" text NOT NULL,
	"set_fields" text NOT NULL,
	"override_emitter" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"deleted_at" bigint,
	CONSTRAINT "classification_rules_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "classification_state" (
	"project_id" text PRIMARY KEY NOT NULL,
	"builtin_enabled" bigint NOT NULL,
	"revision" bigint NOT NULL,
	"applied_revision" bigint NOT NULL,
	"examined" bigint NOT NULL,
	"changed" bigint NOT NULL,
	"total" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "failure_facts" (
	"project_id" text NOT NULL,
	"span_id" text NOT NULL,
	"run_id" text NOT NULL,
	"started_at" bigint NOT NULL,
	"error_type" text,
	"http_status" bigint,
	"attrs" text,
	"group_key" text,
	"rule_id" text,
	"rule_version" bigint,
	"prior" text,
	"revision" bigint NOT NULL,
	CONSTRAINT "failure_facts_pk" PRIMARY KEY("project_id","span_id")
);
--> statement-breakpoint
CREATE INDEX "classification_rules_order_idx" ON "classification_rules" USING btree ("project_id","position");--> statement-breakpoint
CREATE INDEX "failure_facts_group_idx" ON "failure_facts" USING btree ("project_id","group_key","started_at") WHERE "failure_facts"."group_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "failure_facts_run_idx" ON "failure_facts" USING btree ("project_id","run_id");--> statement-breakpoint
CREATE INDEX "failure_facts_revision_idx" ON "failure_facts" USING btree ("project_id","revision");