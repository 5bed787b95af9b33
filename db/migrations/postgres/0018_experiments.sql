CREATE TABLE "experiments" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"code" text NOT NULL,
	"tool" text,
	"variants" text NOT NULL,
	"guards" text NOT NULL,
	"state" text NOT NULL,
	"winner" text,
	"stop_reason" text,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"stopped_at" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "experiments_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "tool_errors" ADD COLUMN "experiment" text;--> statement-breakpoint
ALTER TABLE "tool_errors" ADD COLUMN "variant" text;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiments_project_state_idx" ON "experiments" USING btree ("project_id","state");--> statement-breakpoint
CREATE INDEX "tool_errors_project_experiment_idx" ON "tool_errors" USING btree ("project_id","experiment","variant") WHERE "tool_errors"."experiment" IS NOT NULL;