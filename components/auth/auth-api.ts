// The browser's calls to Better Auth (/api/auth/*). Its errors are `{code?, message}`; the
// message is shown as the server wrote it (sign-in's is deliberately generic).
export type AuthResult = { ok: true } | { ok: false; message: string };

async function post(path: string, body: object): Promise<AuthResult> {
  let res: Response;
  try {
    res = await fetch(`/api/auth/${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: "The server could not be reached. Check your connection and try again." };
  }
  if (res.ok) return { ok: true };
  const json: unknown = await res.json().catch(() => null);
  const message = (json as { message?: unknown } | null)?.message;
  return { ok: false, message: typeof message === "string" && message ? message : `${res.status} ${res.statusText}` };
}

export function signIn(email: string, password: string): Promise<AuthResult> {
  return post("sign-in/email", { email, password });
}

/** The server always ends the other sessions, whatever the body says. */
export function changePassword(currentPassword: string, newPassword: string): Promise<AuthResult> {
  return post("change-password", { currentPassword, newPassword });
}

export function signOut(): Promise<AuthResult> {
  return post("sign-out", {});
}

export const MIN_PASSWORD_LENGTH = 12;
