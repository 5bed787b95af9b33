CREATE TABLE "user_table_columns" (
	"user_id" text NOT NULL,
	"table_key" text NOT NULL,
	"columns" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "user_table_columns_pk" PRIMARY KEY("user_id","table_key")
);
--> statement-breakpoint
ALTER TABLE "user_table_columns" ADD CONSTRAINT "user_table_columns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;