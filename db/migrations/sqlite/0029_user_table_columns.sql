CREATE TABLE `user_table_columns` (
	`user_id` text NOT NULL,
	`table_key` text NOT NULL,
	`columns` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `table_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
