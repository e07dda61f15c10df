import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { QueryProvider } from "@/components/shell/query-provider";
import { parseTheme, THEME_COOKIE } from "@/components/shell/theme";
import { getDb } from "@/db/client";
import { listRuns } from "@/db/queries/runs";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await connection();
  const [runs, cookieStore] = await Promise.all([getDb().then(listRuns), cookies()]);
  return (
    <QueryProvider>
      <AppShell runs={runs.map((r) => ({ name: r.name, accepted: r.accepted }))} theme={parseTheme(cookieStore.get(THEME_COOKIE)?.value)}>
        {children}
      </AppShell>
    </QueryProvider>
  );
}
