CREATE TABLE "trace_links" (
	"project_id" text PRIMARY KEY NOT NULL,
	"preset" text NOT NULL,
	"template" text NOT NULL,
	"settings" text NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "saved_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"page" text NOT NULL,
	"name" text NOT NULL,
	"params" text NOT NULL,
	"shared" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "trace_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "span_id" text;--> statement-breakpoint
ALTER TABLE "trace_links" ADD CONSTRAINT "trace_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_links" ADD CONSTRAINT "trace_links_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_owner_name_uq" ON "saved_views" USING btree ("project_id","owner_id","page","name");--> statement-breakpoint
CREATE INDEX "saved_views_project_page_idx" ON "saved_views" USING btree ("project_id","page");