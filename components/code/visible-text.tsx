import { splitInvisible } from "@/lib/text/invisible";

export type VisibleTextProps = { text: string };

/**
 * Untrusted text as React text nodes, with every invisible or control character drawn as a
 * marker. Works in server and client components alike.
 */
export function VisibleText({ text }: VisibleTextProps) {
  const segments = splitInvisible(text);
  if (segments.length === 1 && segments[0]?.kind === "text") return segments[0].text;
  return segments.map((seg, i) =>
    seg.kind === "text" ? (
      seg.text
    ) : (
      <span key={i} className="inv-mark" title={seg.count > 1 ? `${seg.title} ×${seg.count}` : seg.title} role="img" aria-label={seg.title}>
        {seg.label}
        {seg.count > 1 && `×${seg.count}`}
      </span>
    ),
  );
}
