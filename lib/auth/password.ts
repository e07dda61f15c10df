// One-time passwords for new accounts: random, long, and easy to copy from a terminal.
import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** 20 characters from a 55-letter alphabet without look-alikes: about 115 bits. */
export function generatePassword(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i] ?? 0;
    // Rejection sampling keeps every letter equally likely.
    if (b < 220) out += ALPHABET[b % ALPHABET.length];
  }
  return out.length === length ? out : generatePassword(length);
}
