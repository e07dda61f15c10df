// Before the suite: the admin signs in, creates a viewer and a reviewer through the API (as a
// script would), and every role's signed-in state is saved for the specs to reuse.
import fs from "node:fs";
import { request, type FullConfig } from "@playwright/test";
import { ADMIN, apiSignIn, credentialsFile, ensureStateDir, storageState } from "./auth";

export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("baseURL is not configured");
  ensureStateDir();
  const admin = await request.newContext({ baseURL });
  await apiSignIn(admin, baseURL, ADMIN.email, ADMIN.password);
  await admin.storageState({ path: storageState("admin") });

  const creds: Record<string, { email: string; password: string }> = {};
  for (const role of ["viewer", "reviewer"] as const) {
    const email = `${role}-${Date.now()}@e2e.test`;
    const res = await admin.post("/api/v1/users", { data: { email, role }, headers: { origin: baseURL } });
    if (res.status() !== 201) throw new Error(`creating the ${role} failed: ${res.status()} ${await res.text()}`);
    const { password } = (await res.json()) as { password: string };
    creds[role] = { email, password };
    const ctx = await request.newContext({ baseURL });
    await apiSignIn(ctx, baseURL, email, password);
    await ctx.storageState({ path: storageState(role) });
    await ctx.dispose();
  }
  fs.writeFileSync(credentialsFile(), JSON.stringify(creds, null, 2));
  await admin.dispose();
}
