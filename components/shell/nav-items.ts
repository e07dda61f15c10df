// The dashboard's sections; `key` is the second key of the `g <key>` shortcut.
export const NAV_ITEMS = [
  { href: "/", label: "Overview", key: "o" },
  { href: "/tasks", label: "Tasks", key: "t" },
  { href: "/rounds", label: "Rounds", key: "r" },
  { href: "/validation", label: "Validation", key: "a" },
  { href: "/forest", label: "Forest", key: "e" },
  { href: "/flags", label: "Flags", key: "f" },
  { href: "/review", label: "Review", key: "v" },
] as const;
export type NavItem = (typeof NAV_ITEMS)[number];

/** Shown to admins only; hiding them is cosmetic, the pages and the API check the role. */
export const ADMIN_NAV_ITEMS = [
  { href: "/admin/people", label: "People" },
  { href: "/admin/tokens", label: "Tokens" },
  { href: "/admin/audit", label: "Audit log" },
] as const;

export function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** A section link that keeps the selected run. */
export function withRun(href: string, run: string | null): string {
  return run ? `${href}?run=${encodeURIComponent(run)}` : href;
}
