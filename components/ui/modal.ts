"use client";

import { useEffect, useRef, type RefObject } from "react";

/** The frame of the dialogs an action opens (the caller adds the width). */
export const MODAL_CLASS = "m-auto max-w-[95vw] rounded-lg border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40";

/** A ref for a <dialog> shown as a modal as soon as it mounts: its opener renders it when asked
 * and unmounts it on `close`. */
export function useModalOnMount(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return ref;
}
