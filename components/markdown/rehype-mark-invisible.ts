// Runs after sanitizing: replaces invisible and control characters in rendered markdown with
// visible markers (the same ones the code view draws). The spans it adds are ours, not the input's.
import type { Element, ElementContent, Root, RootContent } from "hast";
import { hasInvisible, splitInvisible } from "@/lib/text/invisible";

function markText(value: string): ElementContent[] {
  return splitInvisible(value).map((seg) =>
    seg.kind === "text"
      ? { type: "text", value: seg.text }
      : {
          type: "element",
          tagName: "span",
          properties: { className: ["inv-mark"], title: seg.title, role: "img", ariaLabel: seg.title },
          children: [{ type: "text", value: seg.count > 1 ? `${seg.label}×${seg.count}` : seg.label }],
        },
  );
}

function walk(node: Root | Element): void {
  const out: (RootContent | ElementContent)[] = [];
  for (const child of node.children) {
    if (child.type === "text" && hasInvisible(child.value)) out.push(...markText(child.value));
    else {
      if (child.type === "element") walk(child);
      out.push(child);
    }
  }
  node.children = out as typeof node.children;
}

export function rehypeMarkInvisible() {
  return (tree: Root) => {
    walk(tree);
  };
}
