"use client";

import { useState } from "react";
import { nextTheme, type Theme, THEME_COOKIE, THEME_STORAGE_KEY } from "./theme";

export type ThemeToggleProps = { initial: Theme };

const LABEL: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const ICON: Record<Theme, string> = { system: "◐", light: "☀", dark: "☾" };

function apply(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  // The cookie is what the server reads for the next first paint; localStorage mirrors it for
  // scripts and other tabs.
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=31536000; SameSite=Lax`;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be disabled; the cookie alone is enough.
  }
}

/** Cycles System → Light → Dark. */
export function ThemeToggle({ initial }: ThemeToggleProps) {
  const [theme, setTheme] = useState<Theme>(initial);
  const next = nextTheme(theme);
  return (
    <button
      type="button"
      className="inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs text-muted hover:bg-surface-2 hover:text-fg"
      onClick={() => {
        apply(next);
        setTheme(next);
      }}
      title={`Theme: ${LABEL[theme]} (click for ${LABEL[next]})`}
      aria-label={`Theme: ${LABEL[theme]}. Switch to ${LABEL[next]}`}
    >
      <span aria-hidden="true" className="w-3 text-center">
        {ICON[theme]}
      </span>
      <span>{LABEL[theme]}</span>
    </button>
  );
}
