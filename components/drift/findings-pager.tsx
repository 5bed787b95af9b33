"use client";

import { usePathname, useRouter } from "next/navigation";
import type { PageInfo } from "@/lib/contracts/paging";
import type { DriftFilters } from "@/lib/query/drift";
import { PageSteps } from "@/components/data-table/page-steps";

const count = (n: number) => n.toLocaleString("en-US");
const findings = (n: number) => `${count(n)} finding${n === 1 ? "" : "s"}`;

/**
 * "12 findings", "101–200 of 4,000 findings", "3 findings matching (12 in all)" when filtered. When a
 * card holds several findings (one card per code and pair of releases) the count of cards follows,
 * so "3 findings" over two cards does not read as one card missing.
 */
export function describeFindings(page: PageInfo, all: number, cards?: number): string {
  const last = Math.min(page.offset + page.limit, page.total);
  const whole = page.offset === 0 && last === page.total;
  const matched = `${findings(page.total)}${page.total === all ? "" : ` matching (${count(all)} in all)`}`;
  const text = whole ? matched : `${count(page.offset + 1)}–${count(last)} of ${matched}`;
  const shown = last - page.offset;
  if (cards === undefined || cards === shown) return text;
  return `${text}, on ${count(cards)} card${cards === 1 ? "" : "s"} (a card holds every change of one code between two releases)`;
}

/** Previous/Next through the findings; the offset lives in the URL like the filters. */
export function FindingsPager({ page, filters }: { page: PageInfo; filters: DriftFilters }) {
  const router = useRouter();
  const pathname = usePathname();
  const go = (offset: number) => {
    const next = { ...filters, offset: offset > 0 ? String(offset) : undefined };
    const qs = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname);
  };
  return <PageSteps page={page} go={go} label="Pages of findings" />;
}
