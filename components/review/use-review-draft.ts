"use client";

import { useCallback, useEffect, useRef, useState } from "react";

const PREFIX = "rst:review-note";

const keyOf = (taskId: number, version: number) => `${PREFIX}:${taskId}:${version}`;

// localStorage throws when it is disabled or full: a draft that cannot be kept is not an error.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch {
    // not kept
  }
}

/** A draft left on an older version of this task (someone decided meanwhile), moved to `version`. */
function adoptOlder(taskId: number, version: number): string | null {
  try {
    const prefix = `${PREFIX}:${taskId}:`;
    const older = Object.keys(window.localStorage)
      .filter((k) => k.startsWith(prefix) && Number(k.slice(prefix.length)) < version)
      .sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length)));
    const newest = older[0] ? read(older[0]) : null;
    for (const k of older) window.localStorage.removeItem(k);
    if (newest) write(keyOf(taskId, version), newest);
    return newest;
  } catch {
    return null;
  }
}

/**
 * The note being typed for a decision on one task version, kept in localStorage on every change
 * so that it survives a reload or a crashed tab; `clear` after the decision is recorded.
 */
export function useReviewDraft(taskId: number, version: number) {
  const key = keyOf(taskId, version);
  const [note, setNoteState] = useState("");
  const keyRef = useRef(key);

  useEffect(() => {
    keyRef.current = key;
    const saved = read(key) ?? adoptOlder(taskId, version);
    if (saved !== null) setNoteState(saved);
  }, [key, taskId, version]);

  const setNote = useCallback((value: string) => {
    setNoteState(value);
    write(keyRef.current, value);
  }, []);

  const clear = useCallback(() => {
    setNoteState("");
    write(keyRef.current, "");
  }, []);

  return { note, setNote, clear };
}
