import type { Metadata } from "next";
import { headers } from "next/headers";
import { PageProblem } from "@/components/dashboard/page-problem";
import { describeMissing } from "./page-guards";

export const metadata: Metadata = { title: "Not found · Faultline" };

/** Every 404 of the dashboard, in the app's shell; for a tool, code, run or project it says which. */
export default async function NotFound() {
  const message = await describeMissing((await headers()).get("x-faultline-url"));
  return <PageProblem status={404} title="Not found" message={message ?? "There is no page at this address."} />;
}
