/** What the not-found page says about a setup link that does not work (app/setup, app/page-guards.tsx). */
export const SETUP_LINK_GONE = "This setup link was used already, has expired (links last 24 hours), or was mistyped. Print a new one on the server with `npm run keys -- setup-link`.";

/** What the not-found page says about an invitation link that does not work. */
export const INVITATION_GONE = "This invitation was used already, revoked, has expired (links last 7 days), or was mistyped. Ask a project admin for a new one.";
