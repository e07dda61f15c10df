// Request body of `POST /api/v1/baselines`: strict, so an unknown field is an error, not ignored.
import { z } from "zod";
import { sliceSchema } from "@/lib/rounds/url-state";

export const newBaselineSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  run: z.string().min(1).max(200),
  /** The Rounds page's slice (category, operator, root, review); empty for the whole run. */
  slice: sliceSchema.strict().default({}),
});
