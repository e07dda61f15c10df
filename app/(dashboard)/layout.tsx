import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { QueryProvider } from "@/components/shell/query-provider";
import { parseTheme, THEME_COOKIE } from "@/components/shell/theme";
import { requireActor } from "@/lib/auth/page";
import { listRuns } from "@/lib/data/read";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await connection();
  const actor = await requireActor();
  const [runs, cookieStore] = await Promise.all([listRuns(actor), cookies()]);
  return (
    <QueryProvider>
      <AppShell
        runs={runs.map((r) => ({ name: r.name, accepted: r.accepted }))}
        theme={parseTheme(cookieStore.get(THEME_COOKIE)?.value)}
        user={{ label: actor.label, role: actor.role }}
      >
        {children}
      </AppShell>
    </QueryProvider>
  );
}
