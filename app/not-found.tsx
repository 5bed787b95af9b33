import type { Metadata } from "next";
import { PageProblem } from "@/components/dashboard/page-problem";
import { missing } from "./page-guards";

export const metadata: Metadata = { title: "Not found · Faultline" };

/** Every 404 of the dashboard, in the app's shell; a page that knows what is missing says so. */
export default function NotFound() {
  return <PageProblem status={404} title="Not found" message={missing().message ?? "There is no page at this address."} />;
}
