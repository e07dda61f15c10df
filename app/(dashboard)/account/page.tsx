import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { RoleBadge } from "@/components/auth/role-badge";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { buttonClass } from "@/components/auth/form-controls";
import { PageHeader } from "@/components/ui/page-header";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const actor = await requireActor();
  return (
    <>
      <PageHeader title="Account" subtitle="Who you are signed in as, and your password." />
      <div className="flex max-w-md flex-col gap-3">
        <section aria-labelledby="account-who" className="rounded-lg border border-line bg-surface px-4 py-3">
          <h2 id="account-who" className="sr-only">
            Signed in as
          </h2>
          <dl className="grid grid-cols-[6rem_minmax(0,1fr)] items-center gap-x-3 gap-y-1.5 text-[13px]">
            <dt className="text-xs text-muted">Email</dt>
            <dd className="truncate font-medium">{actor.label}</dd>
            <dt className="text-xs text-muted">Role</dt>
            <dd>
              <RoleBadge role={actor.role} />
            </dd>
          </dl>
          <div className="mt-3 flex items-center gap-2 border-t border-line pt-3">
            <SignOutButton className={buttonClass} />
            <p className="text-2xs text-faint">Ends this session only.</p>
          </div>
        </section>
        <section className="rounded-lg border border-line bg-surface px-4 py-3">
          <ChangePasswordForm />
        </section>
      </div>
    </>
  );
}
