"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FormError } from "@/components/auth/form-controls";
import { VisibleText } from "@/components/code/visible-text";
import { PageHeader } from "@/components/ui/page-header";
import { tokensQuery } from "@/lib/query/admin";
import { CreateTokenForm } from "./create-token-form";
import { OneTimeSecret } from "./one-time-secret";
import { TokenTable } from "./token-table";

export function TokensView() {
  const tokens = useQuery(tokensQuery());
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const items = tokens.data?.items ?? [];
  const active = items.filter((t) => t.revoked_at === null).length;

  return (
    <>
      <PageHeader title="API tokens" subtitle={tokens.data ? `${active} active, ${items.length - active} revoked` : "Keys for scripts and the command line."} />
      <div className="flex flex-col gap-3">
        <CreateTokenForm onCreated={setShown} />
        {shown && (
          <OneTimeSecret
            key={shown.token}
            label="API token"
            secret={shown.token}
            onDismiss={() => setShown(null)}
            title={
              <>
                Token <span className="font-mono">“<VisibleText text={shown.name} />”</span> created
              </>
            }
          >
            <p className="mt-2 text-2xs text-muted">Try it:</p>
            <pre className="mt-0.5 overflow-x-auto rounded-md border border-line bg-surface px-2 py-1.5 font-mono text-2xs text-fg">
              curl -H &quot;Authorization: Bearer {shown.token}&quot; {window.location.origin}/api/v1/me
            </pre>
          </OneTimeSecret>
        )}
        {tokens.isError && <FormError message={`Could not load tokens: ${tokens.error.message}`} />}
        {tokens.isPending ? <p className="text-xs text-muted">Loading…</p> : <TokenTable tokens={items} />}
      </div>
    </>
  );
}
