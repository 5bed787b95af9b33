"use client";

import { useEffect, useRef, useState } from "react";
import type { KeyCreated } from "@/lib/contracts/keys";
import styles from "./settings.module.css";

/**
 * The new key, shown this once: selected in a read-only field (focus lands there), with a copy
 * button. Where the clipboard is refused (plain HTTP on another host, a denied permission) the field
 * stays selected and the button says to press the copy shortcut instead.
 */
export function CreatedKey({ created, onDone }: { created: KeyCreated; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<"" | "copied" | "selected">("");
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.key]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyState("copied");
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopyState("selected");
    }
  };
  return (
    <section className={styles.reveal} aria-labelledby="created-key-title" data-testid="created-key">
      <h2 id="created-key-title">
        {created.scope === "read" ? "Read" : "Ingest"} key “{created.name}” created
      </h2>
      <p>Copy it now: Faultline keeps only a hash and cannot show this key again.</p>
      <label className={styles.hint} htmlFor="created-key-value">
        The key
      </label>
      <div className={styles.actions}>
        <input id="created-key-value" ref={field} className={styles.secret} readOnly value={created.key} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn" onClick={() => void copy()}>
          Copy
        </button>
        <span aria-live="polite" role="status">
          {copyState === "copied" ? "Copied" : copyState === "selected" ? "Selected: press Ctrl+C (⌘C) to copy" : ""}
        </span>
      </div>
      <div>
        <button type="button" className="btn" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
