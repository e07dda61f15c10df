// Column types the tables share.
import { customType, timestamp } from "drizzle-orm/pg-core";

export const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });
