// Signed-in browser states for the e2e suite. global-setup.ts signs in the admin of the e2e
// server, creates a viewer and a reviewer through the API, and saves one storage state per role.
import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import type { Role } from "@/lib/domain";

export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data/e2e";
export const ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password-0" };
const STATE_DIR = path.join(E2E_DATA_DIR, "auth");

export function storageState(role: Role): string {
  return path.join(STATE_DIR, `${role}.json`);
}

export function credentialsFile(): string {
  return path.join(STATE_DIR, "credentials.json");
}

/** Email and password of the e2e person with this role. */
export function credentials(role: Role): { email: string; password: string } {
  if (role === "admin") return ADMIN;
  const all = JSON.parse(fs.readFileSync(credentialsFile(), "utf8")) as Record<string, { email: string; password: string }>;
  const c = all[role];
  if (!c) throw new Error(`no e2e credentials for ${role}`);
  return c;
}

/** Signs in through the API (the form is tested on its own); cookies land in `request`'s jar. */
export async function apiSignIn(request: APIRequestContext, baseURL: string, email: string, password: string): Promise<void> {
  const res = await request.post("/api/auth/sign-in/email", { data: { email, password }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in through the sign-in form, as a person would. */
export async function formSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export function ensureStateDir(): void {
  fs.mkdirSync(STATE_DIR, { recursive: true });
}
