"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FormError } from "@/components/auth/form-controls";
import { VisibleText } from "@/components/code/visible-text";
import { PageHeader } from "@/components/ui/page-header";
import { peopleQuery } from "@/lib/query/admin";
import { AddPersonForm } from "./add-person-form";
import { OneTimeSecret } from "./one-time-secret";
import { PeopleTable } from "./people-table";

export type PeopleViewProps = { selfId: string | null };

type Shown = { email: string; password: string; reason: "created" | "reset" };

export function PeopleView({ selfId }: PeopleViewProps) {
  const people = useQuery(peopleQuery());
  const [shown, setShown] = useState<Shown | null>(null);
  const items = people.data?.items ?? [];
  const active = items.filter((p) => p.active).length;

  return (
    <>
      <PageHeader
        title="People"
        subtitle={people.data ? `${active} active, ${items.length - active} deactivated. Roles: viewer reads, reviewer decides and flags, admin manages.` : "Who can sign in, and with which role."}
      />
      <div className="flex flex-col gap-3">
        <AddPersonForm onCreated={(c) => setShown({ ...c, reason: "created" })} />
        {shown && (
          <OneTimeSecret
            key={shown.password}
            label="One-time password"
            secret={shown.password}
            onDismiss={() => setShown(null)}
            title={
              <>
                {shown.reason === "created" ? "Added " : "New password for "}
                <span className="font-mono">
                  <VisibleText text={shown.email} />
                </span>
              </>
            }
          >
            <p className="mt-1.5 text-2xs text-muted">Give it to them over a private channel; they sign in with it and can change it under Account.</p>
          </OneTimeSecret>
        )}
        {people.isError && <FormError message={`Could not load people: ${people.error.message}`} />}
        {people.isPending ? <p className="text-xs text-muted">Loading…</p> : <PeopleTable people={items} selfId={selfId} onPassword={(p) => setShown({ ...p, reason: "reset" })} />}
      </div>
    </>
  );
}
