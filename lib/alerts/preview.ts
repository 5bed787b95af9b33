import type { AlertRuleParams } from "@/lib/contracts/alerts";
import { alertKey, conditionsOf, transitionsOf, type AlertFacts, type AlertStateRow, type DriftFact, type ToolWindowFacts } from "./evaluate";

/** The preview replays a rule on this grid: one evaluation per step, as the background job would run it. */
export const PREVIEW_STEP_MS = 5 * 60_000;
export const PREVIEW_DAYS = 7;

/** One tool's attempts started in one step (a 5-minute bucket). */
export interface PreviewBucket {
  tool: string;
  /** Bucket start, epoch ms, a multiple of {@link PREVIEW_STEP_MS}. */
  at: number;
  calls: number;
  failedCalls: number;
  retries: number;
  refusals: number;
  failedClosed: number;
}

/** One time the rule would have fired: which key, from when, until when (null: still firing at the end). */
export interface PreviewEpisode {
  tool: string;
  code: string;
  value: string;
  firedAt: number;
  resolvedAt: number | null;
}

export interface RulePreview {
  from: number;
  to: number;
  stepMinutes: number;
  /** How many notifications the rule would have sent: firings and resolutions. */
  notifications: number;
  episodes: PreviewEpisode[];
}

/**
 * Replays a per-tool rule over the buckets: at each step the window's facts are summed from the
 * buckets it covers and judged by the evaluator's own `conditionsOf`/`transitionsOf`, so the
 * preview fires exactly when the rule would (calls are counted per bucket, so a call whose attempts
 * straddle two buckets counts in both). New codes and drift findings have no window: they are
 * replayed from their first sighting (codes) or listed as they stand now (findings).
 */
export function previewRule(
  params: AlertRuleParams,
  input: { buckets: readonly PreviewBucket[]; newCodes: AlertFacts["newCodes"]; drift: readonly DriftFact[]; regressions?: readonly IssueHistoryEvent[]; from: number; to: number },
): RulePreview {
  const base = { from: input.from, to: input.to, stepMinutes: PREVIEW_STEP_MS / 60_000 };
  if (params.kind === "issue_regressed") {
    const episodes = regressionEpisodes(input.regressions ?? [], params.tool, input.from, input.to);
    return { ...base, notifications: episodes.reduce((n, e) => n + (e.resolvedAt === null ? 1 : 2), 0), episodes };
  }
  if (params.kind === "drift") {
    const now = conditionsOf(params, { tools: [], newCodes: [], drift: input.drift });
    return { ...base, notifications: now.length, episodes: now.map((c) => ({ tool: c.tool, code: c.code, value: c.value, firedAt: input.to, resolvedAt: null })) };
  }
  if (params.kind === "new_code") {
    const seen = conditionsOf(params, { tools: [], newCodes: input.newCodes.filter((c) => c.firstSeen >= input.from && c.firstSeen < input.to), drift: [] });
    const first = new Map(input.newCodes.map((c) => [JSON.stringify([c.tool, c.code]), c.firstSeen]));
    return { ...base, notifications: seen.length, episodes: seen.map((c) => ({ tool: c.tool, code: c.code, value: c.value, firedAt: first.get(c.key) ?? input.from, resolvedAt: null })) };
  }
  // SLO burn rules are replayed from their SLO's own counts (lib/slo/burn-replay.ts).
  if (params.kind === "slo_burn") return { ...base, notifications: 0, episodes: [] };
  const windowSteps = Math.max(1, Math.ceil((params.windowMinutes * 60_000) / PREVIEW_STEP_MS));
  const byStep = new Map<number, PreviewBucket[]>();
  for (const b of input.buckets) (byStep.get(b.at) ?? byStep.set(b.at, []).get(b.at)!).push(b);
  const sum = (tool: string, fromAt: number, toAt: number): Omit<ToolWindowFacts, "tool" | "previousRefusals"> => {
    const out = { calls: 0, failedCalls: 0, retries: 0, refusals: 0, failedClosed: 0 };
    for (let at = fromAt; at < toAt; at += PREVIEW_STEP_MS) {
      for (const b of byStep.get(at) ?? []) {
        if (b.tool !== tool) continue;
        out.calls += b.calls;
        out.failedCalls += b.failedCalls;
        out.retries += b.retries;
        out.refusals += b.refusals;
        out.failedClosed += b.failedClosed;
      }
    }
    return out;
  };
  const tools = [...new Set(input.buckets.map((b) => b.tool))].sort();
  const span = windowSteps * PREVIEW_STEP_MS;
  return replay(params, input.from, input.to, (end) => ({
    tools: tools.map((tool) => ({ tool, ...sum(tool, end - span, end), previousRefusals: sum(tool, end - 2 * span, end - span).refusals })),
    newCodes: [],
    drift: [],
  }));
}

/**
 * Runs the evaluator's own `conditionsOf`/`transitionsOf` at every step of [from, to] on the facts
 * of the window ending there, as the background job would have: the episodes and notifications.
 */
export function replay(params: AlertRuleParams, from: number, to: number, factsAt: (end: number) => AlertFacts): RulePreview {
  let states: AlertStateRow[] = [];
  const open = new Map<string, PreviewEpisode>();
  const episodes: PreviewEpisode[] = [];
  let notifications = 0;
  // The last step closes the bucket `to` falls in, as the live evaluator would count it now.
  const last = Math.ceil(to / PREVIEW_STEP_MS) * PREVIEW_STEP_MS;
  for (let end = Math.ceil(from / PREVIEW_STEP_MS) * PREVIEW_STEP_MS + PREVIEW_STEP_MS; end <= last; end += PREVIEW_STEP_MS) {
    const at = Math.min(end, to);
    const facts = factsAt(end);
    const changes = transitionsOf(conditionsOf(params, facts), states);
    notifications += changes.length;
    for (const c of changes) {
      if (c.status === "firing") {
        const episode = { tool: c.tool, code: c.code, value: c.value, firedAt: at, resolvedAt: null };
        open.set(c.key, episode);
        episodes.push(episode);
      } else {
        const episode = open.get(c.key);
        if (episode) episode.resolvedAt = at;
        open.delete(c.key);
      }
    }
    const firing = new Set(states.filter((s) => s.status === "firing").map((s) => s.key));
    for (const c of changes) (c.status === "firing" ? firing.add(c.key) : firing.delete(c.key));
    states = [...firing].map((key) => ({ key, status: "firing" as const }));
  }
  return { from, to, stepMinutes: PREVIEW_STEP_MS / 60_000, notifications, episodes };
}

/** One entry of an issue's history as the regression preview reads it. */
export interface IssueHistoryEvent {
  tool: string;
  code: string;
  at: number;
  /** `regressed` starts an episode; a person's decision (`state`) ends it. */
  kind: "regressed" | "state";
  detail: string;
}

/**
 * The times an `issue_regressed` rule would have fired over [from, to): each regression starts an
 * episode, the next triage decision on that issue ends it (the rule resolves when the issue is no
 * longer regressed). Events must be in time order. As for new codes, the rule is taken as created at
 * `from`: a regression still open then fires at `from`.
 */
function regressionEpisodes(events: readonly IssueHistoryEvent[], tool: string | undefined, from: number, to: number): PreviewEpisode[] {
  const open = new Map<string, PreviewEpisode>();
  const episodes: PreviewEpisode[] = [];
  for (const e of events) {
    if (e.at >= to || (tool !== undefined && e.tool !== tool)) continue;
    const key = alertKey(e.tool, e.code);
    const current = open.get(key);
    if (e.kind === "regressed" && !current) {
      const episode = { tool: e.tool, code: e.code, value: e.detail, firedAt: e.at, resolvedAt: null };
      open.set(key, episode);
      episodes.push(episode);
    } else if (e.kind === "state" && current) {
      current.resolvedAt = e.at;
      open.delete(key);
    }
  }
  return episodes.filter((e) => e.resolvedAt === null || e.resolvedAt >= from).map((e) => ({ ...e, firedAt: Math.max(e.firedAt, from) }));
}
