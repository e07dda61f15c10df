import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { parseTheme, THEME_COOKIE } from "@/components/shell/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "RST Curator", template: "%s · RST Curator" },
  description: "Curate recursively synthesized terminal tasks: lineage, diffs, sandbox logs, round statistics, review.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The theme comes from a cookie read here, so the first paint is right without an inline script.
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme}>
      <body className="min-h-dvh bg-bg font-sans text-fg antialiased">{children}</body>
    </html>
  );
}
