"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Kbd } from "@/components/ui/kbd";
import { can } from "@/lib/auth/permissions";
import type { Role } from "@/lib/domain";
import { ADMIN_NAV_ITEMS, isActive, NAV_ITEMS, withRun } from "./nav-items";

const linkClass = (active: boolean) =>
  `group flex h-7 items-center justify-between rounded-md px-2 text-[13px] ${
    active ? "bg-surface-3 font-medium text-fg" : "text-muted hover:bg-surface-2 hover:text-fg"
  }`;

export type SideNavProps = { role: Role };

export function SideNav({ role }: SideNavProps) {
  const pathname = usePathname();
  const run = useSearchParams().get("run");
  return (
    <nav aria-label="Sections" className="flex flex-col gap-0.5">
      {NAV_ITEMS.map((item) => {
        const active = isActive(pathname, item.href);
        return (
          <Link key={item.href} href={withRun(item.href, run)} aria-current={active ? "page" : undefined} className={linkClass(active)}>
            <span>{item.label}</span>
            <span className="hidden gap-0.5 opacity-0 group-hover:opacity-100 lg:inline-flex" aria-hidden="true">
              <Kbd>g</Kbd>
              <Kbd>{item.key}</Kbd>
            </span>
          </Link>
        );
      })}
      {can(role, "admin") && (
        <div role="group" aria-labelledby="nav-admin" className="mt-3 flex flex-col gap-0.5">
          <p id="nav-admin" className="px-2 pb-0.5 text-2xs font-medium tracking-wide text-faint uppercase">
            Admin
          </p>
          {ADMIN_NAV_ITEMS.map((item) => {
            const active = isActive(pathname, item.href);
            return (
              <Link key={item.href} href={item.href} aria-current={active ? "page" : undefined} className={linkClass(active)}>
                {item.label}
              </Link>
            );
          })}
        </div>
      )}
    </nav>
  );
}
