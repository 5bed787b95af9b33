import { index, int, serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";
import { users } from "./users";

/**
 * A named set of filters of one dashboard page (its URL query, without the project): its owner's
 * alone, or shared with every member of the project (`shared` = 1). Names are unique per owner,
 * project and page.
 */
export const savedViews = table(
  "saved_views",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The page's path, e.g. `/runs`. */
    page: text("page").notNull(),
    name: text("name").notNull(),
    /** The page's query string, normalised (sorted keys, no `project`). */
    params: text("params").notNull(),
    shared: int("shared").notNull().default(0),
    createdAt: int("created_at").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [uniqueIndex("saved_views_owner_name_uq").on(t.projectId, t.ownerId, t.page, t.name), index("saved_views_project_page_idx").on(t.projectId, t.page)],
);

export const savedViewsPg = pgTableOf(savedViews);
