import Link from "next/link";

export default function NotFound() {
  return (
    <div className="grid min-h-[60dvh] place-items-center px-6">
      <div className="text-center">
        <p className="font-mono text-xs text-faint">404</p>
        <h1 className="mt-1 text-base font-semibold">Not found</h1>
        <p className="mt-1 text-[13px] text-muted">There is nothing at this address. The task or run may have been removed.</p>
        <Link href="/" className="mt-4 inline-block text-[13px] text-accent hover:underline">
          Back to the overview
        </Link>
      </div>
    </div>
  );
}
