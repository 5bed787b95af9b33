import { queryOptions } from "@tanstack/react-query";
import { conformanceSchema } from "@/lib/contracts/conformance";
import { fetchJson } from "./fetch-json";

export const conformanceKeys = {
  all: ["conformance"] as const,
  project: (project: string) => ["conformance", project] as const,
};

export function conformanceOptions(project: string) {
  const qs = project === "default" ? "" : `?project=${encodeURIComponent(project)}`;
  return queryOptions({
    queryKey: conformanceKeys.project(project),
    queryFn: ({ signal }) => fetchJson(`/api/v1/conformance${qs}`, conformanceSchema, signal),
  });
}
