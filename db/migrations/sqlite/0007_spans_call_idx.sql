-- The search box finds a call by its id, exactly or by prefix, within a project.
CREATE INDEX `spans_project_call_idx` ON `tool_call_spans` (`project_id`,`call_id`);
