"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { NAV_ITEMS, withRun } from "@/components/shell/nav-items";
import { Kbd } from "@/components/ui/kbd";
import { formatInt } from "@/lib/format/number";
import { ToolButton } from "./tool-button";

export type GoToLineProps = {
  total: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onGo: (line: number) => void;
};

/**
 * `g` opens a line field. Elsewhere `g` starts the section shortcuts (`g t` → Tasks): a section
 * letter typed first into the empty field still goes there, so both keep working on this page.
 */
export function GoToLine({ total, open, onOpenChange, onGo }: GoToLineProps) {
  const [value, setValue] = useState("");
  const openedAt = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const router = useRouter();
  const searchParams = useSearchParams();

  useEffect(() => {
    if (!open) return;
    openedAt.current = Date.now();
    setValue("");
    inputRef.current?.focus();
  }, [open]);

  if (!open) {
    return (
      <ToolButton label="Go to line (g)" onClick={() => onOpenChange(true)}>
        Go to line <Kbd>g</Kbd>
      </ToolButton>
    );
  }
  const n = Number(value);
  const valid = /^\d+$/.test(value) && n >= 1 && n <= total;
  return (
    <form
      className="flex items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        onGo(n);
        onOpenChange(false);
      }}
    >
      <input
        ref={inputRef}
        aria-label="Go to line"
        inputMode="numeric"
        autoComplete="off"
        placeholder={`Line (1–${formatInt(total)})`}
        value={value}
        onChange={(e) => setValue(e.target.value.replace(/[^\d]/g, ""))}
        onBlur={() => onOpenChange(false)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            onOpenChange(false);
            return;
          }
          const section = NAV_ITEMS.find((item) => item.key === e.key);
          if (section && value === "" && Date.now() - openedAt.current < 1000) {
            e.preventDefault();
            onOpenChange(false);
            router.push(withRun(section.href, searchParams.get("run")));
          }
        }}
        className={`h-7 w-36 rounded-md border bg-surface px-2 font-mono text-xs outline-none placeholder:font-sans placeholder:text-faint ${
          value && !valid ? "border-bad" : "border-accent"
        }`}
      />
    </form>
  );
}
