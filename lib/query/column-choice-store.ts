import type { ColumnChoice } from "@/lib/contracts/column-choices";

/**
 * The localStorage key of one table's column choice for one caller: the signed-in user's id (or
 * "admin-secret"/"open" for those callers). For a signed-in person it is a copy of the server's
 * choice (docs/column-choices.md) that paints first; for the others, the choice itself.
 */
export const columnChoiceKey = (user: string, table: string) => `faultline.columns.v1.${user}.${table}`;

/** Said on this window when a choice is written here (the `storage` event only reaches other tabs). */
export const COLUMNS_CHANGED = "faultline:columns";

/** Keeps a choice in this browser (`{}` removes it) and tells this window's tables. */
export function storeColumnChoice(key: string, choice: ColumnChoice): void {
  try {
    if (Object.keys(choice).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(choice));
  } catch {
    // Storage full or refused (private mode): the server's copy (if any) still holds it.
  }
  window.dispatchEvent(new Event(COLUMNS_CHANGED));
}
