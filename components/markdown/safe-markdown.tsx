import type { ComponentProps } from "react";
import Markdown, { type Components, defaultUrlTransform } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { rehypeMarkInvisible } from "./rehype-mark-invisible";
import { remarkHtmlAsCode } from "./remark-html-as-code";

const HTTP = /^https?:\/\//i;

/** Only absolute http(s) links are followed, in a new tab that learns nothing about us. */
function SafeLink({ href, children, title }: ComponentProps<"a">) {
  if (href && HTTP.test(href)) {
    return (
      <a href={href} title={title ?? href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline">
        {children}
      </a>
    );
  }
  return (
    <span className="underline decoration-faint decoration-dotted" title={href ? `Link not followed: ${href}` : "Unsafe link removed"}>
      {children}
    </span>
  );
}

/** Images are never loaded (no requests to other origins, no tracking pixels): show the alt text. */
function ImageAlt({ alt, src }: ComponentProps<"img">) {
  return (
    <span
      className="inline-flex items-center gap-1 rounded border border-dashed border-line-strong px-1 text-xs text-muted"
      title={typeof src === "string" && src ? `Image not loaded: ${src}` : "Image not loaded"}
    >
      <span aria-hidden="true">▨</span>
      {alt ? alt : "image"}
    </span>
  );
}

/** The page owns h1 and h2; an instruction's own headings sit below them. */
function demote(level: 3 | 4 | 5 | 6) {
  const Tag = `h${level}` as const;
  return function Heading({ children }: ComponentProps<"h3">) {
    return <Tag>{children}</Tag>;
  };
}

const components: Components = {
  a: SafeLink,
  img: ImageAlt,
  h1: demote(3),
  h2: demote(4),
  h3: demote(5),
  h4: demote(6),
  h5: demote(6),
  h6: demote(6),
};

export type SafeMarkdownProps = { source: string };

/** Untrusted markdown: no raw HTML (shown as code instead), sanitized tree, visible invisibles. */
export function SafeMarkdown({ source }: SafeMarkdownProps) {
  return (
    <div className="markdown">
      <Markdown
        remarkPlugins={[remarkGfm, remarkHtmlAsCode]}
        rehypePlugins={[rehypeSanitize, rehypeMarkInvisible]}
        urlTransform={defaultUrlTransform}
        components={components}
      >
        {source}
      </Markdown>
    </div>
  );
}
