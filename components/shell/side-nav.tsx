"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Kbd } from "@/components/ui/kbd";
import { isActive, NAV_ITEMS, withRun } from "./nav-items";

export function SideNav() {
  const pathname = usePathname();
  const run = useSearchParams().get("run");
  return (
    <nav aria-label="Sections" className="flex flex-col gap-0.5">
      {NAV_ITEMS.map((item) => {
        const active = isActive(pathname, item.href);
        return (
          <Link
            key={item.href}
            href={withRun(item.href, run)}
            aria-current={active ? "page" : undefined}
            className={`group flex h-7 items-center justify-between rounded-md px-2 text-[13px] ${
              active ? "bg-surface-3 font-medium text-fg" : "text-muted hover:bg-surface-2 hover:text-fg"
            }`}
          >
            <span>{item.label}</span>
            <span className="hidden gap-0.5 opacity-0 group-hover:opacity-100 lg:inline-flex" aria-hidden="true">
              <Kbd>g</Kbd>
              <Kbd>{item.key}</Kbd>
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
