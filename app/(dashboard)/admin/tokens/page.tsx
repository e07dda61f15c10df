import type { Metadata } from "next";
import { TokensView } from "@/components/admin/tokens-view";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  await requireActor("admin");
  return <TokensView />;
}
