ALTER TABLE "tool_call_spans" ADD COLUMN "derived" text;--> statement-breakpoint
ALTER TABLE "tool_errors" ADD COLUMN "derived" text;