import type { Metadata } from "next";
import { AuditView } from "@/components/admin/audit-view";
import { requireActor } from "@/lib/auth/page";
import { listAuditActions } from "@/lib/data/admin";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const actor = await requireActor("admin");
  // The filter menu offers what the log holds, besides the actions known today.
  const actions = await listAuditActions(actor);
  return <AuditView actions={actions} />;
}
