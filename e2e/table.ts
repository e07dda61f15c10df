// The task table as the e2e specs read it.
import { expect, type Page } from "@playwright/test";

/** The total the table's pager shows ("1–12 of 12"), once the table has settled. */
export async function tableTotal(page: Page): Promise<number> {
  await expect(page.locator("table[aria-busy='true']")).toHaveCount(0);
  const text = await page.getByRole("navigation", { name: "Pages" }).first().innerText();
  const m = /of\s+([\d,]+)/.exec(text);
  if (!m?.[1]) throw new Error(`no total in "${text}"`);
  return Number(m[1].replace(/,/g, ""));
}
