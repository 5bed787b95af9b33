import { getStore } from "@/db/client";
import { listProjects } from "@/db/queries/list-projects";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

export const GET = route(() => Response.json(listProjects(getStore())));
