import { roleAtLeast, type ProjectRole } from "./roles";

/** Why a change to a project's members is refused: `forbidden` (the actor's role) or `conflict` (the project's state). */
export interface MemberChangeRefusal {
  code: "forbidden" | "conflict";
  message: string;
}

/**
 * Whether an actor with `actorRole` may change a member's role from `current` to `next` (`null`:
 * remove them), when the project has `owners` owners. Admins manage admins, members and viewers;
 * only an owner grants, changes or removes the owner role; the last owner stays (a project without
 * one could only be rescued by an instance owner).
 */
export function memberChangeRefusal(actorRole: ProjectRole, current: ProjectRole, next: ProjectRole | null, owners: number): MemberChangeRefusal | null {
  if (!roleAtLeast(actorRole, "admin")) return { code: "forbidden", message: "managing members needs the admin role or a stronger one" };
  if (actorRole !== "owner" && (current === "owner" || next === "owner")) return { code: "forbidden", message: "only an owner can grant, change or remove the owner role" };
  if (current === "owner" && next !== "owner" && owners <= 1) {
    return { code: "conflict", message: "the last owner of a project cannot be demoted or removed; make someone else owner first" };
  }
  return null;
}

/** Whether an actor may invite someone with `role`: admins invite up to admin, owners anyone. */
export function inviteRefusal(actorRole: ProjectRole, role: ProjectRole): MemberChangeRefusal | null {
  if (!roleAtLeast(actorRole, "admin")) return { code: "forbidden", message: "inviting needs the admin role or a stronger one" };
  if (role === "owner" && actorRole !== "owner") return { code: "forbidden", message: "only an owner can invite an owner" };
  return null;
}
