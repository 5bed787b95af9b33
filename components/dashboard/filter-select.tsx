"use client";

import { useRef, useState, type ReactNode } from "react";

/**
 * A select that applies a mouse choice at once but a keyboard one only on Enter or when focus
 * leaves: arrowing through a closed select would otherwise load a view per keystroke.
 */
export function FilterSelect({ name, value, onCommit, children, className, title }: { name: string; value: string; onCommit: (value: string) => void; children: ReactNode; className?: string; title?: string }) {
  const [pending, setPending] = useState<string | null>(null);
  const viaKeys = useRef(false);
  const commit = () => {
    if (pending !== null && pending !== value) onCommit(pending);
    setPending(null);
  };
  return (
    <select
      name={name}
      className={className}
      title={title}
      value={pending ?? value}
      onKeyDown={(e) => {
        if (e.key.startsWith("Arrow") || e.key === "Home" || e.key === "End" || e.key === "PageUp" || e.key === "PageDown" || e.key.length === 1) viaKeys.current = true;
        if (e.key === "Enter") commit();
      }}
      onMouseDown={() => (viaKeys.current = false)}
      onChange={(e) => {
        if (viaKeys.current) setPending(e.target.value);
        else {
          setPending(null);
          onCommit(e.target.value);
        }
        viaKeys.current = false;
      }}
      onBlur={commit}
    >
      {children}
    </select>
  );
}
