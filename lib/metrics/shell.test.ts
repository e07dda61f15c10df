import { describe, expect, it } from "vitest";
import { measureShell } from "./shell";

const script = (...lines: string[]): string => `${lines.join("\n")}\n`;

describe("measureShell: commands and tools", () => {
  it("counts every simple command in pipelines, subshells, substitutions, functions and loops", async () => {
    const metrics = await measureShell(
      script(
        "cat data.csv | sort -u | uniq -c",
        "( cd build && make -j4 )",
        'version="$(git describe --tags)"',
        "files=`ls /app`",
        "setup() { mkdir -p /out; chmod 755 /out; }",
        "setup",
        "for f in *.txt; do wc -l \"$f\"; done",
        "while read -r line; do grep -q x <<< \"$line\"; done < input",
        "if curl -sf http://x; then jq . out.json; fi",
        "diff <(sort a) <(sort b)",
      ),
    );
    // cat sort uniq | cd make | git | ls | mkdir chmod | setup | wc | read grep | curl jq | diff sort sort
    expect(metrics.commands).toBe(18);
    expect(metrics.tools).toEqual(["cat", "chmod", "curl", "diff", "git", "grep", "jq", "ls", "make", "mkdir", "sort", "uniq", "wc"]);
    expect(metrics.distinctTools).toBe(13);
    expect(metrics.parser).toBe("tree-sitter");
  });

  it("does not count assignments, declarations, tests or comments as commands", async () => {
    const metrics = await measureShell(
      script("#!/bin/bash", "# ls -la", "X=1", "export PATH=/x:$PATH", "local y=2", "readonly Z=3", "[ -f a ]", "[[ -d b ]]", "unset X", "(( i++ ))"),
    );
    expect(metrics.commands).toBe(0);
    expect(metrics.tools).toEqual([]);
  });

  it("counts builtins as commands but not as tools", async () => {
    const metrics = await measureShell(script("set -euo pipefail", "cd /app", 'echo "hi"', "printf '%s' x", "true", "test -f x", "exit 0"));
    expect(metrics.commands).toBe(7);
    expect(metrics.distinctTools).toBe(0);
  });

  it("takes the basename of a path and skips names that expand at run time", async () => {
    const metrics = await measureShell(script("/usr/bin/jq . f", "./run.sh --fast", "\\ls", "'pytest' -q", '"$TOOL" --x', "$CMD arg", '"$HOME"/bin/tool'));
    expect(metrics.commands).toBe(7);
    expect(metrics.tools).toEqual(["jq", "ls", "pytest", "run.sh"]);
  });

  it("counts wrappers and the command they run", async () => {
    const metrics = await measureShell(
      script(
        "sudo -u postgres psql -c 'select 1'",
        "env -i HOME=/root LANG=C python3 app.py",
        "find . -name '*.o' | xargs -n 1 -I {} rm {}",
        "timeout -s KILL 30 node server.js",
        "nohup redis-server &",
        "nice -n 10 gzip big.log",
        "stdbuf -oL tail -f log",
        "sudo env X=1 timeout 5s curl http://x",
        "sudo echo hi",
        "xargs",
      ),
    );
    expect(metrics.commands).toBe(11);
    expect(metrics.tools).toEqual(
      ["curl", "env", "find", "gzip", "nice", "node", "nohup", "psql", "python3", "redis-server", "rm", "stdbuf", "sudo", "tail", "timeout", "xargs"].sort(),
    );
  });

  it("does not treat chroot as a wrapper", async () => {
    expect((await measureShell("chroot /mnt apt-get update\n")).tools).toEqual(["chroot"]);
  });

  it("does not count calls of functions the script defines as tools", async () => {
    const metrics = await measureShell(script("log() { printf '%s\\n' \"$*\" >&2; }", "function build { cargo build; }", "log start", "build"));
    expect(metrics.commands).toBe(4);
    expect(metrics.tools).toEqual(["cargo"]);
  });
});

describe("measureShell: lines", () => {
  it("skips blank and comment-only lines, counts code with a trailing comment", async () => {
    const metrics = await measureShell(script("#!/bin/sh", "", "   ", "# setup", "  # indented comment", "ls -la  # list", "pwd"));
    expect(metrics.lines).toBe(2);
  });

  it("counts heredoc body lines, including ones starting with #", async () => {
    const metrics = await measureShell(script("cat > /app/x.py <<'EOF'", "# a python comment", "import os", "", "print(os.getcwd())", "EOF"));
    expect(metrics.lines).toBe(5);
    expect(metrics.commands).toBe(1);
    expect(metrics.tools).toEqual(["cat"]);
  });

  it("reads CRLF scripts like LF ones", async () => {
    const crlf = "#!/bin/bash\r\nls\r\n\r\ncat <<EOF\r\nhello\r\nEOF\r\npwd\r\n";
    const metrics = await measureShell(crlf);
    expect(metrics).toEqual({ lines: 5, commands: 3, distinctTools: 3, tools: ["cat", "ls", "pwd"], parser: "tree-sitter" });
  });

  it("counts the lines of a script with a syntax error after blank lines like those of the same script without them", async () => {
    expect((await measureShell("\n\nls ((\n# c\necho hi\n")).lines).toBe(2);
    expect((await measureShell("ls ((\n# c\necho hi\n")).lines).toBe(2);
  });

  it("measures an empty script as zero", async () => {
    expect(await measureShell("")).toEqual({ lines: 0, commands: 0, distinctTools: 0, tools: [], parser: "tree-sitter" });
  });
});
