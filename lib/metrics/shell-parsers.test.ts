import { describe, expect, it } from "vitest";
import { measureShell } from "./shell";
import { countCodeLines, summarizeFacts, type ShellFacts } from "./shell-facts";
import { readWithMvdan } from "./shell-mvdan";
import { readBashTree } from "./shell-tree-sitter";
import { withStatements } from "./script-parse";

function measured(facts: ShellFacts, source: string) {
  return { ...summarizeFacts(facts), lines: countCodeLines(source.split("\n"), facts.commentRows) };
}

const SCRIPTS = [
  "#!/bin/bash\nset -e\n# build\nmake -C src all  # compile\n",
  "cat a | grep -v x | sort -u > out\n( cd /tmp && tar xzf f.tgz )\nv=$(git rev-parse HEAD)\n",
  "f() { local x=$1; ls \"$x\"; }\nfunction g { f /; }\ng\nexport A=1 B=2\nX=3\nunset X\n",
  "if [ -f a ] && [[ -d b ]]; then rm a; elif test -e c; then :; fi\nlet i=i+1\n(( j++ ))\n",
  "for i in 1 2; do echo $i; done\nwhile read -r l; do wc -c <<< \"$l\"; done < f\ncase $1 in a) ls;; *) pwd;; esac\n",
  "time make\nsudo -u u env A=1 xargs -n1 rm < list\n/usr/bin/python3 - <<'PY'\n# comment inside\nprint(1)\nPY\n",
  "\\ls\ncat <<EOF >> f\n# text $(hostname)\nEOF\nnohup srv &\nwait\n\"$CMD\" x\n'jq' .\n",
];

describe("tree-sitter and mvdan-sh readings agree", () => {
  it.each(SCRIPTS.map((source, index) => [index, source] as const))("on script %i", async (_index, source) => {
    const treeSitter = await withStatements("bash", source, (script) => readBashTree(script, source.split("\n")));
    const mvdan = readWithMvdan(source);
    expect(treeSitter).toMatchObject({ hasError: false, gluedLines: false, gluedAt: null });
    expect(mvdan).not.toBeNull();
    if (mvdan === null) return;
    expect(measured(mvdan, source)).toEqual(measured(treeSitter.facts, source));
  });

  it("mvdan-sh returns null on a script it cannot parse", () => {
    expect(readWithMvdan("if then fi (\n")).toBeNull();
  });
});

describe("a 400-line script", () => {
  const block = (i: number): string[] => [
    `# step ${i}`,
    `mkdir -p /app/out${i}`,
    `cd /app/out${i} && curl -sSf http://example.test/${i} -o data${i}.json`,
    `jq '.items[]' data${i}.json | sort | uniq > items${i}.txt`,
    `if [ -s items${i}.txt ]; then`,
    `  wc -l items${i}.txt`,
    "fi",
    `cat > conf${i}.ini <<EOF`,
    "[section]",
    `key=${i}`,
    "EOF",
  ];
  const header = ["#!/bin/bash", "set -euo pipefail", "", "export DEBIAN_FRONTEND=noninteractive"];
  const source = [...header, ...Array.from({ length: 36 }, (_, i) => block(i)).flat()].join("\n");

  it("is measured exactly by the fast parser", async () => {
    expect(source.split("\n")).toHaveLength(400);
    const metrics = await measureShell(source);
    expect(metrics).toEqual({
      lines: 36 * 10 + 2,
      commands: 36 * 8 + 1,
      distinctTools: 7,
      tools: ["cat", "curl", "jq", "mkdir", "sort", "uniq", "wc"],
      parser: "tree-sitter",
    });
  });
});
