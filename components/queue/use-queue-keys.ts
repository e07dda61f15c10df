"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget } from "@/components/shell/use-hotkeys";

/**
 * The review screen's own keys, heard before the page-wide ones (capture on window): a key
 * handled here is marked handled, so the global `?` help does not open on top of ours.
 */
export function useQueueKeys(map: Record<string, () => void>, enabled = true): void {
  const ref = useRef(map);
  useEffect(() => {
    ref.current = map;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTypingTarget(e.target)) return;
      // A modal dialog (the key list) owns the keyboard while it is open: no letter may decide
      // behind it (the decision bar listens on the document, after this).
      if (document.querySelector("dialog[open]")) {
        if (e.key.length === 1) e.stopPropagation();
        return;
      }
      const handler = ref.current[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [enabled]);
}
