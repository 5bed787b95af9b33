import type { TimelineCall } from "@/lib/contracts/runs";

/**
 * Call indexes grouped by tool: tools in order of their first call, calls in start order (ties keep
 * the answer's order). `starts` are the calls' start times, one per call.
 */
export function groupCallsByTool(calls: readonly Pick<TimelineCall, "tool">[], starts: readonly number[]): Map<string, number[]> {
  const byTool = new Map<string, number[]>();
  const callOrder = calls.map((_, i) => i).sort((i, j) => starts[i]! - starts[j]! || i - j);
  for (const i of callOrder) {
    const tool = calls[i]!.tool;
    const list = byTool.get(tool);
    if (list) list.push(i);
    else byTool.set(tool, [i]);
  }
  return byTool;
}
