/**
 * Roles in a project, strongest first: an owner also manages the project itself, an admin manages
 * keys, alert rules and members, a member reads and mutes alerts, a viewer reads.
 */
export const PROJECT_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

const RANK: Record<ProjectRole, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

/** True when `role` grants at least what `minimum` does. */
export const roleAtLeast = (role: ProjectRole, minimum: ProjectRole): boolean => RANK[role] >= RANK[minimum];

/** Type guard for a stored or submitted role name. */
export const isProjectRole = (value: unknown): value is ProjectRole => typeof value === "string" && (PROJECT_ROLES as readonly string[]).includes(value);
