// Which grammar a task file is highlighted with: by name first, then by shebang.
export const CODE_LANGS = ["bash", "python", "docker", "toml", "markdown", "json", "yaml"] as const;
export type CodeLang = (typeof CODE_LANGS)[number];

const BY_EXTENSION: Record<string, CodeLang> = {
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  py: "python",
  dockerfile: "docker",
  toml: "toml",
  md: "markdown",
  markdown: "markdown",
  json: "json",
  yaml: "yaml",
  yml: "yaml",
};

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function languageForPath(path: string, firstLine?: string): CodeLang | null {
  const name = basename(path).toLowerCase();
  if (name === "dockerfile" || name === "containerfile" || name.startsWith("dockerfile.")) return "docker";
  const dot = name.lastIndexOf(".");
  if (dot > 0) {
    const byExt = BY_EXTENSION[name.slice(dot + 1)];
    if (byExt) return byExt;
  }
  if (firstLine?.startsWith("#!")) {
    if (/\b(ba|z|da|k)?sh\b/.test(firstLine)) return "bash";
    if (/\bpython[0-9.]*\b/.test(firstLine)) return "python";
  }
  return null;
}

/** Human label for the file header. */
export function languageLabel(lang: CodeLang | null): string {
  switch (lang) {
    case "bash":
      return "Shell";
    case "python":
      return "Python";
    case "docker":
      return "Dockerfile";
    case "toml":
      return "TOML";
    case "markdown":
      return "Markdown";
    case "json":
      return "JSON";
    case "yaml":
      return "YAML";
    case null:
      return "Plain text";
  }
}
