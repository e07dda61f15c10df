// The data layer for the forest view: refused unless the role may read.
import { getDb } from "@/db/client";
import * as forest from "@/db/queries/forest";
import { authorize, type Actor } from "@/lib/auth/actor";

export async function getForest(actor: Actor | null, run: string) {
  authorize(actor, "read");
  return forest.getForest(await getDb(), run);
}
