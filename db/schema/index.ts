// The only source of row types. Designed for all twelve capabilities (PRODUCT.md):
// later issues add columns and tables; they should not need to reshape these.
export * from "@/lib/domain";
export * from "./tasks";
export * from "./trials";
export * from "./auth";
export * from "./review";
export * from "./activity";
export * from "./rollups";
