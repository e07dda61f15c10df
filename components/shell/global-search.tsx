"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Kbd } from "@/components/ui/kbd";
import { useHotkeys } from "./use-hotkeys";

/**
 * Full-text search over instruction, solution and verifier. On /tasks it edits the table's `q`
 * in place (shallow URL update, debounced); elsewhere Enter opens /tasks with the query.
 */
export function GlobalSearch() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const onTasks = pathname === "/tasks";
  const urlQ = onTasks ? (searchParams.get("q") ?? "") : "";
  const [value, setValue] = useState(urlQ);
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Follow the URL (back button, "clear filters") unless the user is typing here.
  useEffect(() => {
    if (document.activeElement !== inputRef.current) setValue(urlQ);
  }, [urlQ]);

  useHotkeys({
    "/": (e) => {
      e.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    },
  });

  const tasksUrl = (q: string) => {
    const params = new URLSearchParams(onTasks ? searchParams.toString() : "");
    const run = searchParams.get("run");
    if (run) params.set("run", run);
    if (q.trim()) params.set("q", q.trim());
    else params.delete("q");
    params.delete("cursor");
    const qs = params.toString();
    return qs ? `/tasks?${qs}` : "/tasks";
  };

  const onChange = (q: string) => {
    setValue(q);
    if (!onTasks) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => window.history.replaceState(null, "", tasksUrl(q)), 300);
  };

  return (
    <form
      role="search"
      className="relative w-full max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        clearTimeout(timer.current);
        if (onTasks) window.history.replaceState(null, "", tasksUrl(value));
        else router.push(tasksUrl(value));
      }}
    >
      <label htmlFor="global-search" className="sr-only">
        Search tasks
      </label>
      <input
        id="global-search"
        ref={inputRef}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") e.currentTarget.blur();
        }}
        placeholder="Search instructions, solutions, verifiers…"
        autoComplete="off"
        spellCheck={false}
        className="h-7 w-full rounded-md border border-line bg-surface pr-8 pl-2.5 text-[13px] text-fg placeholder:text-faint hover:border-line-strong"
      />
      <span className="pointer-events-none absolute top-1.5 right-2" aria-hidden="true">
        <Kbd>/</Kbd>
      </span>
    </form>
  );
}
