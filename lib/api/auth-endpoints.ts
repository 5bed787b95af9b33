import { invitationInfoSchema, invitationsSchema, membersSchema } from "@/lib/contracts/auth";
import { z } from "zod";
import { defineEndpoint } from "./endpoint";
import { meEndpoints } from "./read/me";

// These endpoints read nothing from the query string: the project (or token) is in the path.
const projectPath = z.object({});

/** The read endpoints of team access (accounts, members, invitations), described like `endpoints`. */
export const authEndpoints = {
  ...meEndpoints,
  members: defineEndpoint<typeof projectPath, typeof membersSchema, "project">({
    id: "members",
    path: "/api/v1/projects/:project/members",
    query: projectPath,
    response: membersSchema,
  }),
  invitations: defineEndpoint<typeof projectPath, typeof invitationsSchema, "project">({
    id: "invitations",
    path: "/api/v1/projects/:project/invitations",
    query: projectPath,
    response: invitationsSchema,
  }),
  // Public: the link's token is the credential (the page that accepts it reads this first).
  invitation: defineEndpoint<typeof projectPath, typeof invitationInfoSchema, "token">({
    id: "invitation",
    path: "/api/v1/auth/invitations/:token",
    query: projectPath,
    response: invitationInfoSchema,
  }),
} as const;
