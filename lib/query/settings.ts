import { z } from "zod";
import { endpointUrl, type RawQuery } from "@/lib/api/endpoint";
import { settingsEndpoints } from "@/lib/api/read/settings";
import { projectsEndpoints } from "@/lib/api/read/projects";
import { keyCreatedSchema, type KeyCreate } from "@/lib/contracts/keys";
import { projectDetailSchema, type ProjectCreate, type ProjectPatch } from "@/lib/contracts/project-admin";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

// The settings pages' reads, each from its endpoint descriptor, and their writes.

const at = (project: string) => ({ params: { project }, search: {} });

export const projectDetailQuery = (project: string) => endpointQuery(settingsEndpoints.projectDetail, at(project));

export const projectKeysQuery = (project: string) => endpointQuery(settingsEndpoints.projectKeys, at(project));

/** One page of the audit log; `search` is the page's query string (the endpoint keeps its own keys: action, actor, offset, limit). */
export const auditLogQuery = (project: string, search: RawQuery) => endpointQuery(settingsEndpoints.auditLog, { params: { project }, search });

/** Every page and filter of one project's audit log (invalidated after a change in the project). */
export const auditLogKeys = (project: string) => [settingsEndpoints.auditLog.id, project] as const;

/** Creates a project (instance owners); the caller becomes its owner. */
export const createProject = (body: ProjectCreate) => sendJson("POST", projectsEndpoints.projects.path, projectDetailSchema, body);

/** Renames, archives or restores a project (its owner). */
export const patchProject = (project: string, patch: ProjectPatch) => sendJson("PATCH", endpointUrl(settingsEndpoints.projectDetail, at(project)), projectDetailSchema, patch);

/** Creates a key; the answer holds the clear key, this once. */
export const createProjectKey = (project: string, body: KeyCreate) => sendJson("POST", endpointUrl(settingsEndpoints.projectKeys, at(project)), keyCreatedSchema, body);

/** Revokes a key by its prefix (204). */
export const revokeProjectKey = (project: string, prefix: string) =>
  sendJson("DELETE", `${endpointUrl(settingsEndpoints.projectKeys, at(project))}/${encodeURIComponent(prefix)}`, z.undefined());
