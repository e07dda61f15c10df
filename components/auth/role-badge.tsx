import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Role } from "@/lib/domain";

const ROLE_TONE: Record<Role, BadgeTone> = { viewer: "neutral", reviewer: "info", admin: "accent" };

export type RoleBadgeProps = { role: Role };

export function RoleBadge({ role }: RoleBadgeProps) {
  return <Badge tone={ROLE_TONE[role] ?? "neutral"}>{role}</Badge>;
}
