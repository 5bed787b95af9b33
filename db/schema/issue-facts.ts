import { index, int, primaryKey, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/** Failures of an issue per release: its release range and the order regressions are judged in. */
export const issueReleases = table(
  "issue_releases",
  {
    projectId: text("project_id").notNull(),
    issueId: text("issue_id").notNull(),
    /** lib/drift/release-key.ts: tool version, else release, else SDK version, else ISO week. */
    release: text("release").notNull(),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
    failures: int("failures").notNull(),
  },
  (t) => [primaryKey({ name: "issue_releases_pk", columns: [t.projectId, t.issueId, t.release] })],
);

/** Failures of an issue per hour: the trend against the previous period and the worst hour. */
export const issueHours = table(
  "issue_hours",
  {
    projectId: text("project_id").notNull(),
    issueId: text("issue_id").notNull(),
    hour: int("hour").notNull(),
    failures: int("failures").notNull(),
  },
  (t) => [primaryKey({ name: "issue_hours_pk", columns: [t.projectId, t.issueId, t.hour] })],
);

/** The runs an issue failed in, once each: a new row adds one to `issues.runs`. */
export const issueRuns = table(
  "issue_runs",
  {
    projectId: text("project_id").notNull(),
    issueId: text("issue_id").notNull(),
    runId: text("run_id").notNull(),
  },
  // The key alone: nothing reads an issue's runs by run (a (project, run) index cost 3–5 bytes per span).
  (t) => [primaryKey({ name: "issue_runs_pk", columns: [t.projectId, t.issueId, t.runId] })],
);

/** An issue's history: its creation, every state change, assignment and note, with who and when. */
export const issueEvents = table(
  "issue_events",
  {
    id: serial("id"),
    projectId: text("project_id").notNull(),
    issueId: text("issue_id").notNull(),
    at: int("at").notNull(),
    /** Null for ingest's own changes (created, regressed, unignored). */
    actorUserId: text("actor_user_id"),
    actorLabel: text("actor_label").notNull(),
    /** created, regressed, unignored, state, assigned, note. */
    kind: text("kind").notNull(),
    /** The new state, the assignee, the note's text or why ingest changed it. */
    detail: text("detail").notNull(),
  },
  (t) => [index("issue_events_issue_idx").on(t.projectId, t.issueId, t.id)],
);

export const issueReleasesPg = pgTableOf(issueReleases);

export const issueHoursPg = pgTableOf(issueHours);

export const issueRunsPg = pgTableOf(issueRuns);

export const issueEventsPg = pgTableOf(issueEvents);
