import { getStore } from "@/server/store";
import { listProjects } from "@/db/queries/list-projects";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route(() => Response.json(listProjects(getStore())));
