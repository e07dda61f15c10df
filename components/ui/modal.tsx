"use client";

import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { DialogTitleBar } from "./dialog-title-bar";

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

export type ModalDialogProps = {
  dialogRef: RefObject<HTMLDialogElement | null>;
  /** the title's element id (the dialog is labelled by it) */
  id: string;
  title: string;
  /** a Tailwind width, e.g. `w-[30rem]` */
  width: string;
  /** more classes for the body (a column with the title bar first) */
  bodyClassName?: string;
  onClose: () => void;
  children: ReactNode;
};

/** A dialog with its title bar (✕ closes it) over a column of content. */
export function ModalDialog({ dialogRef, id, title, width, bodyClassName = "", onClose, children }: ModalDialogProps) {
  return (
    <dialog ref={dialogRef} aria-labelledby={id} onClose={onClose} className={`${width} ${MODAL_CLASS}`}>
      <div className={`flex flex-col gap-3 px-4 py-3 ${bodyClassName}`}>
        <DialogTitleBar id={id} title={title} onClose={() => dialogRef.current?.close()} />
        {children}
      </div>
    </dialog>
  );
}
