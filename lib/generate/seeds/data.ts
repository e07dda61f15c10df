// Names and fixture data for seed tasks: small but plausible files the environments ship.
import type { Rng } from "../prng";
import type { Profile } from "../types";

export const APPS = [
  "ledger", "billing", "orders", "catalog", "inventory", "telemetry", "payroll", "shipping", "auth", "search",
  "reports", "metrics", "gateway", "notify", "booking", "checkout", "crm", "warehouse", "fleet", "clinic",
  "library", "ticketing", "survey", "pricing", "loyalty", "media", "backup", "audit", "forecast", "ingest",
  "scheduler", "registry", "docs", "sensors", "rentals", "invoices", "grades", "tracker", "kiosk", "vault",
] as const;

const TEAMS = ["platform", "payments", "data", "infra", "growth", "security", "support"] as const;
const REGIONS = ["north", "south", "east", "west", "central"] as const;
const PRODUCTS = ["widget", "gadget", "sprocket", "gizmo", "doohickey", "bracket", "flange", "valve"] as const;
const FIRST = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "oscar", "peggy", "rupert", "sybil", "trent", "victor", "wendy"] as const;
const PATHS = ["/", "/api/v1/items", "/api/v1/orders", "/login", "/static/app.js", "/static/site.css", "/health", "/api/v1/search", "/admin", "/favicon.ico"] as const;
const AGENTS = ["curl/8.5.0", "Mozilla/5.0 (X11; Linux x86_64)", "python-requests/2.31.0", "Go-http-client/1.1"] as const;
const COMPONENTS = ["api", "worker", "scheduler", "db-pool", "cache", "auth"] as const;
const MESSAGES = ["request completed", "job finished", "connection reset by peer", "cache miss", "retrying upstream call", "slow query detected", "token refreshed", "queue drained"] as const;

export function makeProfile(rng: Rng, base?: Partial<Profile>): Profile {
  const app = rng.pick(APPS);
  const root = rng.pick(["/app", `/srv/${app}`, `/opt/${app}`]);
  return {
    app,
    root,
    user: app.slice(0, 8),
    port: rng.pick([3000, 5000, 8000, 8080]) + rng.int(1, 99),
    dataDir: `${root}/data`,
    reportDir: `${root}/reports`,
    logDir: `/var/log/${app}`,
    inputs: [],
    ...base,
  };
}

function ip(rng: Rng): string {
  return rng.chance(0.7) ? `10.0.${rng.int(0, 9)}.${rng.int(2, 60)}` : `203.0.113.${rng.int(2, 250)}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function nginxLog(rng: Rng, lines: number): string {
  const out: string[] = [];
  let minute = rng.int(0, 600);
  for (let i = 0; i < lines; i++) {
    minute += rng.int(0, 2);
    const status = rng.chance(0.78) ? 200 : rng.pick([201, 204, 301, 304, 400, 401, 403, 404, 404, 500, 502, 503]);
    const t = `${pad(10 + Math.floor(minute / 60) % 12)}:${pad(minute % 60)}:${pad(rng.int(0, 59))}`;
    out.push(`${ip(rng)} - - [12/Mar/2024:${t} +0000] "${rng.pick(["GET", "GET", "GET", "POST"])} ${rng.pick(PATHS)} HTTP/1.1" ${status} ${rng.int(0, 9000)} "-" "${rng.pick(AGENTS)}"`);
  }
  return out.join("\n") + "\n";
}

export function appLog(rng: Rng, lines: number): string {
  const out: string[] = [];
  let sec = rng.int(0, 3000);
  for (let i = 0; i < lines; i++) {
    sec += rng.int(1, 40);
    const level = rng.chance(0.7) ? "INFO" : rng.pick(["WARN", "ERROR", "DEBUG", "ERROR"]);
    const ts = `2024-03-12T${pad(8 + Math.floor(sec / 3600))}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}Z`;
    out.push(`${ts} ${level} ${rng.pick(COMPONENTS)} ${rng.pick(MESSAGES)} duration_ms=${rng.int(2, 2400)}`);
  }
  return out.join("\n") + "\n";
}

export function salesCsv(rng: Rng, rows: number): string {
  const out = ["order_id,date,region,product,units,unit_price"];
  for (let i = 0; i < rows; i++) {
    const month = rng.int(1, 6);
    out.push(`${1000 + i},2024-${pad(month)}-${pad(rng.int(1, 28))},${rng.pick(REGIONS)},${rng.pick(PRODUCTS)},${rng.int(1, 40)},${rng.int(2, 180)}.${pad(rng.int(0, 99))}`);
  }
  return out.join("\n") + "\n";
}

export function usersCsv(rng: Rng, rows: number): string {
  const out = ["username,full_name,team,shell"];
  const names = rng.sample(FIRST, rows);
  for (const n of names) out.push(`${n},${n[0]?.toUpperCase() ?? ""}${n.slice(1)} ${rng.pick(["Smith", "Jones", "Ng", "Garcia", "Okafor", "Kowalski"])},${rng.pick(TEAMS)},${rng.pick(["/bin/bash", "/bin/bash", "/usr/sbin/nologin"])}`);
  return out.join("\n") + "\n";
}

export function eventsJsonl(rng: Rng, rows: number): string {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const type = rng.pick(["signup", "login", "purchase", "refund", "logout"]);
    const user = rng.pick(FIRST);
    out.push(JSON.stringify({ id: `evt_${rng.hex(8)}`, type, user, ts: `2024-03-${pad(rng.int(1, 7))}T${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00Z`, amount: type === "purchase" || type === "refund" ? rng.int(5, 400) : null }));
  }
  return out.join("\n") + "\n";
}

export function productsCsv(rng: Rng, rows: number): string {
  const out = ["sku,name,category,reorder_level"];
  for (let i = 0; i < rows; i++) out.push(`SKU-${1000 + i},${rng.pick(PRODUCTS)}-${rng.alnum(3).toLowerCase()},${rng.pick(["hardware", "tools", "garden", "office"])},${rng.int(5, 40)}`);
  return out.join("\n") + "\n";
}

export function stockMovesCsv(rng: Rng, rows: number, skus: number): string {
  const out = ["sku,moved_at,quantity"];
  for (let i = 0; i < rows; i++) out.push(`SKU-${1000 + rng.int(0, skus - 1)},2024-02-${pad(rng.int(1, 28))},${rng.chance(0.6) ? rng.int(1, 50) : -rng.int(1, 30)}`);
  return out.join("\n") + "\n";
}

export function servicesIni(rng: Rng, n: number): { text: string; names: string[] } {
  const names = rng.sample(["api", "web", "worker", "metrics", "admin", "cache", "queue", "search", "grpc"], n);
  const ports = [8080, 8081, 9090, 9100, 6379, 5432, 8443];
  const blocks = names.map((name) => `[${name}]\nport = ${rng.pick(ports)}\nbind = ${rng.pick(["0.0.0.0", "127.0.0.1"])}\nenabled = ${rng.pick(["true", "true", "false"])}\n`);
  return { text: blocks.join("\n"), names };
}

export { REGIONS, PRODUCTS, TEAMS };
