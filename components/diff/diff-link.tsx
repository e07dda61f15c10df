"use client";

import Link from "next/link";
import type { ComponentProps } from "react";
import { useDiffView } from "./diff-files";
import { withView } from "./types";

export type DiffLinkProps = Omit<ComponentProps<typeof Link>, "href"> & { href: string };

/** A link to another diff that keeps the layout chosen here (switched in place, so only the browser knows it). */
export function DiffLink({ href, ...props }: DiffLinkProps) {
  return <Link href={withView(href, useDiffView())} {...props} />;
}
