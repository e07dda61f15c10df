// Raw HTML in an instruction is never rendered; rather than dropping it silently (hiding what a
// generator wrote), show it as code.
import type { Nodes, Root } from "mdast";

function visit(node: Nodes, inline: boolean): Nodes {
  if (node.type === "html") {
    return inline ? { type: "inlineCode", value: node.value } : { type: "code", lang: "html", value: node.value };
  }
  if ("children" in node) {
    const childInline = inline || node.type === "paragraph" || node.type === "heading" || node.type === "tableCell";
    node.children = node.children.map((c) => visit(c, childInline)) as typeof node.children;
  }
  return node;
}

export function remarkHtmlAsCode() {
  return (tree: Root) => {
    visit(tree, false);
  };
}
