import { setupRoute } from "@/server/routes/projects";

export const dynamic = "force-dynamic";

export const GET = setupRoute.GET;
