"use client";

import { AdminTable } from "./admin-table";
import type { PersonJson } from "@/lib/query/admin";
import { PersonRow, type PersonRowProps } from "./person-row";

export type PeopleTableProps = {
  people: PersonJson[];
  selfId: string | null;
  onPassword: PersonRowProps["onPassword"];
};

const HEAD = [
  ["Person", "w-auto text-left"],
  ["Role", "w-32 text-left"],
  ["Status", "w-28 text-left"],
  ["Last sign-in", "w-36 text-left"],
  ["Sessions", "w-20 text-right"],
  ["Created", "w-36 text-left"],
  ["Actions", "w-72 text-right"],
] as const;

export function PeopleTable({ people, selfId, onPassword }: PeopleTableProps) {
  return (
    <AdminTable caption="People who can sign in, with their roles" columns={HEAD} minWidth="min-w-[900px]">
      {people.map((p) => (
        <PersonRow key={p.id} person={p} isSelf={p.id === selfId} onPassword={onPassword} />
      ))}
    </AdminTable>
  );
}
