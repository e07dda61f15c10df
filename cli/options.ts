import { InvalidArgumentError } from "commander";

export function parseIntOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}
