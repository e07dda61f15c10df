// Query factories and writes for the admin pages (people, tokens, audit log). The JSON shapes
// are those of app/api/v1/{users,tokens,audit}.
import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { Role } from "@/lib/domain";
import { fetchJson, sendJson } from "./fetch-json";

export interface PersonJson {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  created_at: string;
  last_sign_in_at: string | null;
  sessions: number;
}

export interface TokenJson {
  id: number;
  name: string;
  role: Role;
  prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditEntryJson {
  id: number;
  at: string;
  actor_id: string | null;
  actor: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
}

export interface AuditPageJson {
  items: AuditEntryJson[];
  next: string | null;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  target_type?: string;
  target_id?: string;
}

export const AUDIT_FILTER_KEYS = ["action", "actor", "target_type", "target_id"] as const satisfies readonly (keyof AuditFilter)[];

export const adminKeys = {
  people: ["admin", "people"] as const,
  tokens: ["admin", "tokens"] as const,
  audit: (filter: AuditFilter) => ["admin", "audit", auditSearch(filter)] as const,
  auditAll: ["admin", "audit"] as const,
};

export function peopleQuery() {
  return queryOptions({
    queryKey: adminKeys.people,
    queryFn: ({ signal }) => fetchJson<{ items: PersonJson[] }>("/api/v1/users", signal),
  });
}

export function tokensQuery() {
  return queryOptions({
    queryKey: adminKeys.tokens,
    queryFn: ({ signal }) => fetchJson<{ items: TokenJson[] }>("/api/v1/tokens", signal),
  });
}

export const AUDIT_PAGE_SIZE = 50;

function auditSearch(filter: AuditFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const key of AUDIT_FILTER_KEYS) {
    const value = filter[key]?.trim();
    if (value) params.set(key, value);
  }
  if (cursor) params.set("cursor", cursor);
  return params.toString();
}

/** Newest first; each page's `next` is the cursor of the following (older) page. */
export function auditQuery(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: adminKeys.audit(filter),
    queryFn: ({ signal, pageParam }) =>
      fetchJson<AuditPageJson>(`/api/v1/audit?${auditSearch(filter, pageParam)}&limit=${AUDIT_PAGE_SIZE}`, signal),
    initialPageParam: undefined as string | undefined,
    // Keep the rows on screen while a new filter loads, instead of flashing "Loading…".
    placeholderData: keepPreviousData,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });
}

export function addPerson(input: { email: string; name?: string; role: Role }) {
  return sendJson<{ id: string; email: string; role: Role; password: string }>("POST", "/api/v1/users", input);
}

export function updatePerson(id: string, patch: { role: Role } | { active: boolean }) {
  return sendJson<{ ok: true }>("PATCH", `/api/v1/users/${encodeURIComponent(id)}`, patch);
}

export function resetPassword(id: string) {
  return sendJson<{ password: string }>("POST", `/api/v1/users/${encodeURIComponent(id)}/password`);
}

export function createToken(input: { name: string; role: Role }) {
  return sendJson<{ id: number; name: string; role: Role; token: string }>("POST", "/api/v1/tokens", input);
}

export function revokeToken(id: number) {
  return sendJson<{ ok: true }>("DELETE", `/api/v1/tokens/${id}`);
}
