"use client";

import { useState } from "react";

/** Copies a key prefix, a command or an id; says "Copied" for a moment (announced to screen readers). */
export function CopyButton({ text, getText, label = "Copy", children = "Copy" }: { text: string; getText?: () => string; label?: string; children?: React.ReactNode }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(getText ? getText() : text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 1500);
  };
  return (
    <button type="button" className="btn copy-btn" onClick={() => void copy()} title={label} data-testid="copy-button">
      {children}
      <span aria-live="polite" className="copy-state">
        {state === "copied" ? " ✓ Copied" : state === "failed" ? " (copy blocked)" : ""}
      </span>
    </button>
  );
}
