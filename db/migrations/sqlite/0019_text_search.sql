-- Full-text search over attempt error messages (tool_call_spans.message) and told texts
-- (tool_errors.told), docs/search.md. Two external-content FTS5 tables: they store only the index,
-- the text stays in its table, and rowid is the table's pk. Triggers keep them in step with every
-- insert (ingest), delete (retention) and change of the text, inside the writer's own transaction, so
-- a row can never be found after it is gone. The tokenizer folds case but keeps diacritics, as
-- PostgreSQL's 'simple' configuration does, so both engines match the same rows.
CREATE VIRTUAL TABLE `span_message_fts` USING fts5(`message`, content='tool_call_spans', content_rowid='pk', tokenize='unicode61 remove_diacritics 0');
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_ai` AFTER INSERT ON `tool_call_spans` WHEN new.`message` IS NOT NULL BEGIN
  INSERT INTO `span_message_fts` (rowid, `message`) VALUES (new.`pk`, new.`message`);
END;
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_ad` AFTER DELETE ON `tool_call_spans` WHEN old.`message` IS NOT NULL BEGIN
  INSERT INTO `span_message_fts` (`span_message_fts`, rowid, `message`) VALUES ('delete', old.`pk`, old.`message`);
END;
--> statement-breakpoint
CREATE TRIGGER `span_message_fts_au` AFTER UPDATE OF `message` ON `tool_call_spans` BEGIN
  INSERT INTO `span_message_fts` (`span_message_fts`, rowid, `message`) SELECT 'delete', old.`pk`, old.`message` WHERE old.`message` IS NOT NULL;
  INSERT INTO `span_message_fts` (rowid, `message`) SELECT new.`pk`, new.`message` WHERE new.`message` IS NOT NULL;
END;
--> statement-breakpoint
INSERT INTO `span_message_fts` (`span_message_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `told_text_fts` USING fts5(`told`, content='tool_errors', content_rowid='pk', tokenize='unicode61 remove_diacritics 0');
--> statement-breakpoint
CREATE TRIGGER `told_text_fts_ai` AFTER INSERT ON `tool_errors` WHEN new.`told` IS NOT NULL BEGIN
  INSERT INTO `told_text_fts` (rowid, `told`) VALUES (new.`pk`, new.`told`);
END;
--> statement-breakpoint
CREATE TRIGGER `told_text_fts_ad` AFTER DELETE ON `tool_errors` WHEN old.`told` IS NOT NULL BEGIN
  INSERT INTO `told_text_fts` (`told_text_fts`, rowid, `told`) VALUES ('delete', old.`pk`, old.`told`);
END;
--> statement-breakpoint
CREATE TRIGGER `told_text_fts_au` AFTER UPDATE OF `told` ON `tool_errors` BEGIN
  INSERT INTO `told_text_fts` (`told_text_fts`, rowid, `told`) SELECT 'delete', old.`pk`, old.`told` WHERE old.`told` IS NOT NULL;
  INSERT INTO `told_text_fts` (rowid, `told`) SELECT new.`pk`, new.`told` WHERE new.`told` IS NOT NULL;
END;
--> statement-breakpoint
INSERT INTO `told_text_fts` (`told_text_fts`) VALUES ('rebuild');
