import Link from "next/link";
import type { ReactNode } from "react";
import type { Role } from "@/lib/domain";
import { Kbd } from "@/components/ui/kbd";
import { GlobalSearch } from "./global-search";
import { type RunOption, RunSelector } from "./run-selector";
import { Shortcuts } from "./shortcuts";
import { SideNav } from "./side-nav";
import type { Theme } from "./theme";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

export type AppShellProps = { runs: RunOption[]; theme: Theme; user: { label: string; role: Role }; children: ReactNode };

export function AppShell({ runs, theme, user, children }: AppShellProps) {
  return (
    <div className="grid min-h-dvh grid-cols-[176px_minmax(0,1fr)]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-1.5"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 flex h-dvh flex-col gap-4 border-r border-line bg-surface px-2.5 py-3">
        <Link href="/" className="flex items-center gap-2 px-2 text-[13px] font-semibold tracking-tight">
          <span aria-hidden="true" className="grid size-5 place-items-center rounded bg-accent font-mono text-[10px] text-accent-fg">
            R
          </span>
          RST Curator
        </Link>
        <SideNav role={user.role} />
        <div className="mt-auto flex flex-col gap-2">
          <div className="flex flex-col gap-1 px-1 text-2xs text-faint">
            <ThemeToggle initial={theme} />
            <p className="flex items-center gap-1 px-2">
              <Kbd>?</Kbd> shortcuts
            </p>
          </div>
          <UserMenu user={user} />
        </div>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-20 flex h-11 items-center gap-4 border-b border-line bg-surface/90 px-4 backdrop-blur">
          <RunSelector runs={runs} />
          <GlobalSearch />
        </header>
        <main id="main" className="min-w-0 flex-1 px-4 py-4">
          {children}
        </main>
      </div>
      <Shortcuts />
    </div>
  );
}
