import { chromium } from "@playwright/test";
const [, , base, out, ...paths] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: process.env.SCHEME ?? "light" });
const page = await ctx.newPage();
const r = await page.request.post(`${base}/api/auth/sign-in/email`, { data: { email: "admin@dev.test", password: "dev-admin-password-0" }, headers: { origin: base } });
if (!r.ok()) throw new Error("sign in " + r.status());
let i = 0;
for (const p of paths) {
  await page.goto(base + p, { waitUntil: "networkidle", timeout: 120000 });
  if (process.env.WAITFOR) await page.getByText(process.env.WAITFOR).first().waitFor({ timeout: 120000 });
  await page.screenshot({ path: `${out}-${i++}.png`, fullPage: process.env.FULL === "1" });
}
await browser.close();
