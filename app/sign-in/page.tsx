import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentActor, safeNext } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  // Dynamic, so the request's CSP nonce lands on the page's scripts.
  await connection();
  const { next: rawNext } = await searchParams;
  const next = safeNext(typeof rawNext === "string" ? rawNext : null);
  if (await currentActor()) redirect(next);

  return (
    <main className="grid min-h-dvh place-items-center px-4 py-10">
      <div className="w-full max-w-[340px]">
        <div className="rounded-lg border border-line bg-surface px-5 py-5 shadow-sm">
          <h1 className="mb-4 flex items-center gap-2 text-sm font-semibold tracking-tight">
            <span aria-hidden="true" className="grid size-5 place-items-center rounded bg-accent font-mono text-[10px] text-accent-fg">
              R
            </span>
            RST Curator <span className="font-normal text-faint">—</span> Sign in
          </h1>
          <SignInForm next={next} />
        </div>
        <p className="mt-3 px-1 text-2xs leading-relaxed text-faint">
          First time here? The administrator&apos;s password was printed by <code className="font-mono whitespace-nowrap text-muted">npm start</code> on its
          first start (or set with <code className="font-mono whitespace-nowrap text-muted">ADMIN_EMAIL</code> and{" "}
          <code className="font-mono whitespace-nowrap text-muted">ADMIN_PASSWORD</code>). Everyone else gets an account from an administrator.
        </p>
      </div>
    </main>
  );
}
