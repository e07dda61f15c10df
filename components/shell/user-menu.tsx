"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SignOutButton } from "@/components/auth/sign-out-button";
import type { Role } from "@/lib/domain";
import { RoleBadge } from "@/components/auth/role-badge";

export type UserMenuProps = { user: { label: string; role: Role } };

const item = "flex h-7 w-full items-center rounded-md px-2 text-xs text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-50";

/** Who is signed in, their account page and sign-out, at the foot of the side bar. */
export function UserMenu({ user }: UserMenuProps) {
  const onAccount = usePathname() === "/account";
  return (
    <section aria-label="Signed in" className="flex flex-col gap-0.5 border-t border-line pt-2">
      <div className="flex items-center gap-1.5 px-2 pb-1" title={user.label}>
        <span className="min-w-0 flex-1 truncate text-xs text-fg">{user.label}</span>
        <RoleBadge role={user.role} />
      </div>
      <Link href="/account" aria-current={onAccount ? "page" : undefined} className={`${item} ${onAccount ? "bg-surface-3 text-fg" : ""}`}>
        Account
      </Link>
      <SignOutButton className={`${item} text-left`} />
    </section>
  );
}
