// What a signed-out browser, another site and a spoofed header can get: nothing. Pages carry the
// security headers and run under a nonce CSP without a single violation.
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { storageState } from "./auth";
import { uploadRunDirectory } from "./upload";

const SIGNED_OUT = { cookies: [], origins: [] };

test.describe("signed out", () => {
  test.use({ storageState: SIGNED_OUT });

  test("pages redirect to sign-in, in every variant; the API answers 401", async ({ request, baseURL }) => {
    const variants: [string, Record<string, string>][] = [
      ["/", {}],
      ["/tasks?run=demo", {}],
      ["/tasks/1", {}],
      ["/tasks?_rsc=abc12", { RSC: "1" }],
      ["/tasks/1?_rsc=abc12", { RSC: "1", "Next-Router-Prefetch": "1" }],
      ["/admin/people", {}],
      ["/tasks", { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" }],
      ["/tasks", { "x-middleware-subrequest": "src/middleware:nowaf:src/middleware:src/middleware:src/middleware:src/middleware:middleware:middleware:nowaf:middleware:middleware:middleware:pages/_middleware" }],
    ];
    for (const [url, headers] of variants) {
      // Follow redirects by hand: Next.js first drops an `_rsc` value it did not issue (a redirect
      // to the same page without it), then the page sends the browser to sign-in.
      let target = url;
      let res = await request.get(target, { headers, maxRedirects: 0 });
      for (let hop = 0; hop < 3 && [303, 307, 308].includes(res.status()) && !/\/sign-in/.test(res.headers().location ?? ""); hop++) {
        expect(await res.text(), target).not.toMatch(/seed-\d{4}|solve\.sh|"task_id"/);
        target = new URL(res.headers().location ?? "/", baseURL).pathname + new URL(res.headers().location ?? "/", baseURL).search;
        res = await request.get(target, { headers, maxRedirects: 0 });
      }
      const body = await res.text();
      // A document request gets an HTTP redirect; an RSC request may get the redirect inside
      // the flight payload instead. Either way it points at sign-in.
      const redirected = [303, 307, 308].includes(res.status()) && /\/sign-in/.test(res.headers().location ?? "");
      const inPayload = res.status() < 300 && headers.RSC === "1" && /NEXT_REDIRECT[^\n]*\/sign-in/.test(body);
      expect(redirected || inPayload, `${url} ${JSON.stringify(headers)} → ${target} ${res.status()} ${res.headers().location ?? ""}`).toBe(true);
      // No task data in whatever body came along with the redirect.
      expect(body, url).not.toMatch(/seed-\d{4}|solve\.sh|"task_id"/);
    }
    for (const url of ["/api/v1/runs", "/api/v1/tasks?run=demo", "/api/v1/tasks/1", "/api/v1/users", "/api/v1/audit"]) {
      const res = await request.get(url, { headers: { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" } });
      expect(res.status(), url).toBe(401);
      // The JSON API's answers may run and frame nothing (pages have their nonce CSP instead).
      expect(res.headers()["content-security-policy"], url).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
      expect(res.headers()["x-content-type-options"], url).toBe("nosniff");
    }
    expect(baseURL).toBeTruthy();
  });
});

test("pages carry a nonce CSP without eval, and the security headers", async ({ page }) => {
  const res = await page.goto("/tasks?run=demo");
  const headers = res?.headers() ?? {};
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
});

test("no CSP violation while working through the pages", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto("/");
  await page.goto("/tasks?run=demo");
  await page.locator("tbody tr").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/tasks\/\d+/);
  await page.goto("/account");
  await page.goto("/admin/people");
  expect(violations).toEqual([]);
});

test("a cross-site write with the admin's cookie changes nothing; a token's works", async ({ baseURL }) => {
  const admin = await playwrightRequest.newContext({ baseURL, storageState: storageState("admin") });
  const tokensBefore = ((await (await admin.get("/api/v1/tokens")).json()) as { items: unknown[] }).items.length;
  const body = JSON.stringify({ name: "csrf", role: "admin" });
  const attempts: Record<string, string>[] = [
    { origin: "https://evil.example", "content-type": "application/json" },
    { "content-type": "application/json" },
    { origin: "https://evil.example", "content-type": "text/plain" },
    { origin: "null", "content-type": "text/plain" },
  ];
  for (const headers of attempts) {
    const res = await admin.post("/api/v1/tokens", { data: body, headers });
    expect(res.status(), JSON.stringify(headers)).toBe(403);
  }
  // Same origin, but a body a cross-site form could send:
  const plain = await admin.post("/api/v1/tokens", { data: body, headers: { origin: baseURL ?? "", "content-type": "text/plain" } });
  expect(plain.status()).toBe(415);
  // Signing out through another site is refused too.
  expect((await admin.post("/api/auth/sign-out", { data: "{}", headers: { origin: "https://evil.example", "content-type": "application/json" } })).status()).toBe(403);
  const tokensAfter = ((await (await admin.get("/api/v1/tokens")).json()) as { items: unknown[] }).items.length;
  expect(tokensAfter).toBe(tokensBefore);

  const made = await admin.post("/api/v1/tokens", { data: { name: "script", role: "admin" }, headers: { origin: baseURL ?? "" } });
  expect(made.status()).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const script = await playwrightRequest.newContext({ baseURL, storageState: SIGNED_OUT });
  const viaToken = await script.post("/api/v1/tokens", { data: { name: "from-script", role: "viewer" }, headers: { authorization: `Bearer ${token}` } });
  expect(viaToken.status()).toBe(201);
  await script.dispose();
  await admin.dispose();
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageState("viewer") });

  test("reads tasks but cannot review or reach admin pages, nor their API", async ({ page, request, baseURL }) => {
    await page.goto("/tasks?run=demo");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    for (const url of ["/review", "/admin/people", "/admin/tokens", "/admin/audit"]) {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(403);
      await expect(page.getByText(/not allowed/i).first()).toBeVisible();
    }
    await page.screenshot({ path: "e2e/screenshots/forbidden-viewer.png", fullPage: true });
    expect((await request.get("/api/v1/users")).status()).toBe(403);
    expect((await request.post("/api/v1/tokens", { data: { name: "x", role: "admin" }, headers: { origin: baseURL ?? "" } })).status()).toBe(403);
    await expect(page.getByRole("link", { name: "People" })).toHaveCount(0);
  });
});

test("a pipeline uploads a run archive with an admin token; the run appears", async ({ baseURL }) => {
  const { writeFixtureRun } = await import("../lib/ingest/fixtures");
  const fs = await import("node:fs");
  const admin = await playwrightRequest.newContext({ baseURL, storageState: storageState("admin") });
  const made = await admin.post("/api/v1/tokens", { data: { name: "uploader", role: "admin" }, headers: { origin: baseURL ?? "" } });
  const { token } = (await made.json()) as { token: string };
  await admin.dispose();
  const script = await playwrightRequest.newContext({ baseURL, storageState: SIGNED_OUT });
  const dir = writeFixtureRun("uploaded-e2e");
  try {
    const summary = await uploadRunDirectory(script, dir, "uploaded-e2e", { headers: { authorization: `Bearer ${token}` } });
    expect(summary).toMatchObject({ run: "uploaded-e2e", tasksNew: 5 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const runs = (await (await script.get("/api/v1/runs", { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { name: string; accepted: number }[] };
  expect(runs.items.find((r) => r.name === "uploaded-e2e")?.accepted).toBe(4);
  await script.dispose();
});
