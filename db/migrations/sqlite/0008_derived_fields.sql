ALTER TABLE `tool_call_spans` ADD `derived` text;--> statement-breakpoint
ALTER TABLE `tool_errors` ADD `derived` text;