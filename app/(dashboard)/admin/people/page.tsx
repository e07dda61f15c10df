import type { Metadata } from "next";
import { PeopleView } from "@/components/admin/people-view";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "People" };

export default async function PeoplePage() {
  const actor = await requireActor("admin");
  return <PeopleView selfId={actor.userId} />;
}
