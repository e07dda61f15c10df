// One QueryClient per server request: `cache()` scopes it to the render, so data never leaks
// between requests (a module-level client would).
import "server-only";
import { cache } from "react";
import { makeQueryClient } from "./make-query-client";

export const getServerQueryClient = cache(makeQueryClient);
