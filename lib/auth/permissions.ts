// Who may do what. Plain data, safe in the browser (to decide what to show); the server decides
// what is allowed through `authorize` in the data layer, never through what the page shows.
import type { Role } from "@/lib/domain";

export const PERMISSIONS = {
  /** Every page and every GET of the API. */
  read: ["viewer", "reviewer", "admin"],
  /** Review decisions, queues and saved views. */
  review: ["reviewer", "admin"],
  /** Raise, resolve and dismiss flags. */
  flag: ["reviewer", "admin"],
  /** Import runs and trials. */
  ingest: ["admin"],
  /** Streamed exports of the dataset. */
  export: ["admin"],
  /** People, roles, API tokens and the audit log. */
  admin: ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
