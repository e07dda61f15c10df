// Screenshots for people to look at (e2e/screenshots, not committed): light and dark theme.
import type { Page } from "@playwright/test";

export async function shot(page: Page, name: string, opts: { both?: boolean; fullPage?: boolean } = {}): Promise<void> {
  const themes = opts.both === false ? (["light"] as const) : (["light", "dark"] as const);
  for (const theme of themes) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    await page.screenshot({ path: `e2e/screenshots/${name}${theme === "dark" ? "-dark" : ""}.png`, fullPage: opts.fullPage ?? false });
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "light";
  });
}
