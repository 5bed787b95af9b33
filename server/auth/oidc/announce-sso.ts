import type { Store } from "@/db/client";
import { projectExists } from "@/db/keys";
import type { Config } from "../../config";
import { CALLBACK_PATH } from "./sign-in-urls";

/**
 * At start, when single sign-on is configured: one line with the redirect URI to register at the
 * provider, and a warning when the default project does not exist (new users could not be created;
 * the start goes on, since the project can be created while the server runs).
 */
export async function announceSso(store: Store, c: Config): Promise<void> {
  if (!c.oidc) return;
  const callback = c.publicUrl ? c.publicUrl.replace(/\/+$/, "") + CALLBACK_PATH : `<this dashboard's address>${CALLBACK_PATH} (set FAULTLINE_PUBLIC_URL behind a proxy)`;
  console.log(`[faultline] single sign-on through ${c.oidc.issuer}; the provider's redirect URI for client ${c.oidc.clientId}: ${callback}`);
  if (!(await projectExists(store, c.oidc.defaultProject))) {
    console.warn(`[faultline] FAULTLINE_OIDC_DEFAULT_PROJECT=${c.oidc.defaultProject} names no project: single sign-on cannot create accounts until it exists`);
  }
}
