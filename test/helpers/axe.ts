import path from "node:path";
import type { Page } from "playwright-core";

const AXE = path.join(process.cwd(), "node_modules/axe-core/axe.min.js");

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now (one line per node). axe is
 * injected as a script, which the nonce CSP refuses: the page's context must bypass CSP.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const result = (await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe.run(document, { resultTypes: ["violations"] }))) as AxeResult;
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(" ")}`));
}
