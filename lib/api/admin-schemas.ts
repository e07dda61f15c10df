// Request bodies of the admin routes: strict, so an unknown field is an error, not ignored.
import { z } from "zod";
import { ROLES } from "@/lib/domain";

export const newPersonSchema = z.strictObject({
  email: z.email().max(320),
  name: z.string().trim().max(200).optional(),
  role: z.enum(ROLES),
});

export const personPatchSchema = z
  .strictObject({ role: z.enum(ROLES).optional(), active: z.boolean().optional() })
  .refine((p) => p.role !== undefined || p.active !== undefined, { message: "give role or active" });

export const newTokenSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  role: z.enum(ROLES),
});

export const auditQuerySchema = z.object({
  action: z.string().max(100).optional(),
  actor: z.string().max(320).optional(),
  target_type: z.string().max(50).optional(),
  target_id: z.string().max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
