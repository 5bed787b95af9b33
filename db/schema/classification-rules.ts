import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
/**

 * A project's classification rules, current version of each (lib/contracts/classification.ts).
 * `match` and `set_fields` hold the rule's conditions and what it sets as JSON; a deleted rule keeps
 * its row (`deleted_at`) so that calls it classified still name it.
 */
export const classificationRules = table(
  "classification_rules",
  {
    projectId: text("project_id").notNull(),
    id: text("id").notNull(),
    version: int("version").notNull(),
    position: int("position").notNull(),
    name: text("name").notNull(),
    enabled: int("enabled").notNull(),
    match: text("match").notNull(),
    setFields: text("set_fields").notNull(),
    overrideEmitter: int("override_emitter").notNull(),
    createdAt: int("created_at").notNull(),
    updatedAt: int("updated_at").notNull(),
    deletedAt: int("deleted_at"),
  },
  (t) => [primaryKey({ name: "classification_rules_pk", columns: [t.projectId, t.id] }), index("classification_rules_order_idx").on(t.projectId, t.position)],
);

/** Every version of every rule, as saved: what a call's `rule_version` refers to. */
export const classificationRuleVersions = table(
  "classification_rule_versions",
  {
    projectId: text("project_id").notNull(),
    ruleId: text("rule_id").notNull(),
    version: int("version").notNull(),
    /** The rule input of this version as JSON; null for a deletion. */
    body: text("body"),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    at: int("at").notNull(),
  },
  (t) => [primaryKey({ name: "classification_rule_versions_pk", columns: [t.projectId, t.ruleId, t.version] })],
);

/**
 * Changes of a project's classification that are not a rule's version: a reorder of its rules
 * (`reordered`) and a switch of the built-in pack (`builtin_on`, `builtin_off`), each at the revision
 * it bumped to. `codes` (a JSON array, sorted) collects the codes of the stored calls the
 * re-classification job moved while bringing them past that revision: the codes the change concerned.
 */
export const classificationEvents = table(
  "classification_events",
  {
    projectId: text("project_id").notNull(),
    revision: int("revision").notNull(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    at: int("at").notNull(),
    codes: text("codes").notNull().default("[]"),
  },
  (t) => [primaryKey({ name: "classification_events_pk", columns: [t.projectId, t.revision] })],
);

/**
 * Per project: whether the built-in pack is on, and a revision bumped by every rule change (ingest
 * reloads its compiled rules when it moves; the re-classification job works towards it).
 */
export const classificationState = table("classification_state", {
  projectId: text("project_id").primaryKey(),
  builtinEnabled: int("builtin_enabled").notNull(),
  revision: int("revision").notNull(),
  /** The revision stored calls were last brought to by the re-classification job. */
  appliedRevision: int("applied_revision").notNull(),
  /** Calls the current re-classification has examined and changed, and how many it will examine. */
  examined: int("examined").notNull(),
  changed: int("changed").notNull(),
  total: int("total").notNull(),
  updatedAt: int("updated_at").notNull(),
});

export const classificationRulesPg = pgTableOf(classificationRules);

export const classificationRuleVersionsPg = pgTableOf(classificationRuleVersions);

export const classificationStatePg = pgTableOf(classificationState);

export const classificationEventsPg = pgTableOf(classificationEvents);
