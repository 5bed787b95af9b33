"use client";

import { useRouter } from "next/navigation";
import { useCallback, useState, type MouseEvent } from "react";

const CHECK_TIMEOUT_MS = 8_000;

/** True when the server answered at all (a 503 of a degraded database still serves pages). */
async function serverAnswers(): Promise<boolean> {
  try {
    await fetch("/api/health", { cache: "no-store", signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Section links that stay inside the app when the server is down. Next falls back to a full page
 * load when a client navigation's fetch fails, which ends on the browser's own error page and loses
 * the page the user was on; one small request first tells the two apart.
 */
export function useCheckedNavigation() {
  const router = useRouter();
  const [failed, setFailed] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const go = useCallback(
    async (href: string) => {
      setChecking(true);
      const up = await serverAnswers();
      setChecking(false);
      if (!up) return setFailed(href);
      setFailed(null);
      router.push(href);
    },
    [router],
  );
  /** A link's click handler: a plain left click is checked; new-tab and modified clicks are left to the browser. */
  const onClick = (href: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void go(href);
  };
  return { failed, checking, onClick, retry: () => (failed ? go(failed) : undefined), dismiss: () => setFailed(null) };
}

/** What the page shows when a section could not be opened: the server did not answer. */
export function UnreachableNotice({ href, checking, onRetry, onDismiss }: { href: string; checking: boolean; onRetry: () => void; onDismiss: () => void }) {
  return (
    <div className="unreachable" role="alert" data-testid="unreachable">
      <strong>Cannot reach Faultline.</strong> The server did not answer, so “{new URL(href, "http://x").pathname}” could not be opened; this page
      stays as it was loaded.{" "}
      <button type="button" className="btn" onClick={onRetry} disabled={checking}>
        {checking ? "Trying…" : "Try again"}
      </button>{" "}
      <button type="button" className="btn" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
