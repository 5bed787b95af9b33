import { describe, expect, it } from "vitest";
import { inviteRefusal, memberChangeRefusal } from "@/lib/auth/member-rules";
import { isProjectRole, PROJECT_ROLES, roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { projectRoleSchema } from "@/lib/contracts/auth";
import { accountBlockMs } from "@/server/auth/sign-in";

describe("project roles", () => {
  it("rank owner > admin > member > viewer", () => {
    const table = PROJECT_ROLES.map((role) => PROJECT_ROLES.map((minimum) => roleAtLeast(role, minimum)));
    expect(table).toEqual([
      [true, true, true, true],
      [false, true, true, true],
      [false, false, true, true],
      [false, false, false, true],
    ]);
  });

  it("are the same four names in the wire contract", () => {
    expect(projectRoleSchema.options).toEqual([...PROJECT_ROLES]);
    expect(["owner", "viewer", "Owner", "", null].map(isProjectRole)).toEqual([true, true, false, false, false]);
  });
});

describe("who may change a membership", () => {
  const refusal = (actor: ProjectRole, current: ProjectRole, next: ProjectRole | null, owners = 2) => memberChangeRefusal(actor, current, next, owners)?.code ?? "ok";

  it("lets admins manage admins, members and viewers, and only owners touch the owner role", () => {
    expect(refusal("admin", "viewer", "admin")).toBe("ok");
    expect(refusal("admin", "admin", null)).toBe("ok");
    expect(refusal("admin", "viewer", "owner")).toBe("forbidden");
    expect(refusal("admin", "owner", "viewer")).toBe("forbidden");
    expect(refusal("admin", "owner", null)).toBe("forbidden");
    expect(refusal("owner", "viewer", "owner")).toBe("ok");
    expect(refusal("owner", "owner", "admin")).toBe("ok");
    expect(refusal("member", "viewer", "member")).toBe("forbidden");
    expect(refusal("viewer", "viewer", null)).toBe("forbidden");
  });

  it("keeps the last owner", () => {
    expect(memberChangeRefusal("owner", "owner", "admin", 1)).toEqual({ code: "conflict", message: "the last owner of a project cannot be demoted or removed; make someone else owner first" });
    expect(refusal("owner", "owner", null, 1)).toBe("conflict");
    expect(refusal("owner", "owner", "owner", 1)).toBe("ok");
  });

  it("lets admins invite up to admin and owners anyone", () => {
    expect(PROJECT_ROLES.map((r) => inviteRefusal("admin", r)?.message ?? "ok")).toEqual(["only an owner can invite an owner", "ok", "ok", "ok"]);
    expect(PROJECT_ROLES.map((r) => inviteRefusal("owner", r) ?? "ok")).toEqual(["ok", "ok", "ok", "ok"]);
    expect(inviteRefusal("member", "viewer")?.code).toBe("forbidden");
  });
});

describe("account blocks after failed sign-ins", () => {
  it("start at the limit with one window and double with each further failure, up to a day", () => {
    expect([1, 2, 3, 4, 5, 6].map((f) => accountBlockMs(f, 3, 60_000))).toEqual([0, 0, 60_000, 120_000, 240_000, 480_000]);
    expect(accountBlockMs(40, 3, 60_000)).toBe(86_400_000);
  });
});
