import { flag, index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";

/**
 * A project's service level objectives (docs/slos.md): which tools, the objective, the window and
 * what counts as bad. `tools` is a JSON array of names and globs; `objective` the fraction as
 * written (text: no float column on either engine rounds it).
 */
export const slos = table(
  "slos",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    tools: text("tools").notNull(),
    objective: text("objective").notNull(),
    windowDays: int("window_days").notNull(),
    countDeclines: flag("count_declines").notNull(),
    countRecovered: flag("count_recovered").notNull(),
    createdAt: int("created_at").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [index("slos_project_idx").on(t.projectId)],
);

export const slosPg = pgTableOf(slos);
