"use client";

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
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table className="w-full min-w-[900px] table-fixed border-collapse text-xs">
        <caption className="sr-only">People who can sign in, with their roles</caption>
        <thead className="border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            {HEAD.map(([label, cls]) => (
              <th key={label} scope="col" className={`h-7 px-2 font-medium ${cls}`}>
                {label === "Actions" ? <span className="sr-only">{label}</span> : label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <PersonRow key={p.id} person={p} isSelf={p.id === selfId} onPassword={onPassword} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
