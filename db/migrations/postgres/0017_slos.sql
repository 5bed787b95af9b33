CREATE TABLE "slos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"tools" text NOT NULL,
	"objective" text NOT NULL,
	"window_days" bigint NOT NULL,
	"count_declines" smallint NOT NULL,
	"count_recovered" smallint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "slos" ADD CONSTRAINT "slos_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "slos_project_idx" ON "slos" USING btree ("project_id");