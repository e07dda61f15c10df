// Deterministic demo generator of realistic RST runs in the native layout (FORMATS.md §4).
export { generateRun, type GenerateOptions, type GenerateSummary } from "./run";
export { RULES, type Rule } from "./defects";
