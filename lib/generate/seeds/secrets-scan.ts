// Security seed: find leaked credentials in a source tree, report them as JSON and publish a
// redacted copy; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, join } from "./compose";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const secretsScan: SeedTemplate = {
  id: "secrets-scan",
  category: "security",
  image: "ubuntu:24.04",
  difficulty: "medium",
  profile: (p) => ({ dataDir: `${p.root}/src` }),
  build(rng, p) {
    const src = `${p.root}/src`;
    const settings = `${src}/settings.py`;
    const key = `AKIA${rng.alnum(16).toUpperCase()}`;
    const token = `ghp_${rng.alnum(36)}`;
    const settingsText = [
      `"""${p.app} settings."""`,
      "DEBUG = False",
      `DATABASE_URL = "postgres://${p.app}:hunter2@db.internal:5432/${p.app}"`,
      `AWS_ACCESS_KEY_ID = "${key}"`,
      `GITHUB_TOKEN = "${token}"`,
      'ALLOWED_HOSTS = ["*"]',
      "",
    ].join("\n");
    const findings = `${p.reportDir}/secrets.json`;
    const redacted = `${p.root}/redacted`;
    const packages = ["jq"];
    const printed: string[] = [];

    const v = rng.pick([
      { src: "SRC", out: "OUT", red: "REDACTED", n: "count" },
      { src: "tree", out: "report", red: "masked", n: "found" },
      { src: "SOURCE_DIR", out: "FINDINGS", red: "CLEAN_COPY", n: "total" },
      { src: "src_root", out: "findings_json", red: "public_copy", n: "hits" },
    ]);
    const $ = (name: string) => `"$${name}"`;

    const header = join([
      rng.pick([
        "# Find credentials in the source tree, report them, and publish a redacted copy.",
        "# Secret scan: report where credentials sit (never their values), then ship a masked copy.",
        "# Leaked credentials: locate them, write the JSON report, publish the tree with them blanked out.",
      ]),
      ...rng.shuffle([`${v.src}=${src}`, `${v.out}=${findings}`, `${v.red}=${redacted}`]),
      rng.pick([`mkdir -p ${p.reportDir}`, `install -d ${p.reportDir}`, `mkdir -p "$(dirname ${$(v.out)})"`]),
    ]);

    // The three detectors, as one alternation or as one variable per kind.
    const split = rng.chance(0.5);
    const re = rng.pick([
      { aws: "AWS_RE", gh: "GH_RE", url: "URL_RE" },
      { aws: "aws_key", gh: "gh_token", url: "url_pass" },
    ]);
    const patternDefs = split
      ? join([`${re.aws}='AKIA[0-9A-Z]{16}'`, `${re.gh}='ghp_[A-Za-z0-9]{36}'`, `${re.url}='://[^:/@ ]+:[^@ ]+@'`])
      : "patterns='AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}|://[^:/@ ]+:[^@ ]+@'";
    const any = split ? `"$${re.aws}|$${re.gh}|$${re.url}"` : `"$patterns"`;
    const awsRe = split ? `"$${re.aws}"` : "'AKIA[0-9A-Z]{16}'";
    const ghRe = split ? `"$${re.gh}"` : "'ghp_[A-Za-z0-9]{36}'";
    const urlRe = split ? `"$${re.url}"` : "'://[^:/@ ]+:[^@ ]+@'";

    const scan = choose(rng, [
      () => sh`
        # file:line:match → JSON objects with the kind of secret.
        grep -rnoE ${any} ${$(v.src)} \\
          | awk -F: '
              {
                m = substr($0, length($1) + length($2) + 3)
                if (m ~ /^AKIA/) kind = "aws-access-key"
                else if (m ~ /^ghp_/) kind = "github-token"
                else kind = "url-password"
                printf "{\\"file\\": \\"%s\\", \\"line\\": %d, \\"kind\\": \\"%s\\"}\\n", $1, $2, kind
              }' \\
          | jq -s 'sort_by(.file, .line)' > ${$(v.out)}`,
      () => sh`
        # One grep per kind; jq builds the objects so quoting is never hand-rolled.
        scan() {
          { grep -rnoE "$2" ${$(v.src)} || true; } | jq -cR --arg kind "$1" 'capture("^(?<file>[^:]+):(?<line>[0-9]+):") | {file, line: (.line | tonumber), kind: $kind}'
        }
        {
          scan aws-access-key ${awsRe}
          scan github-token ${ghRe}
          scan url-password ${urlRe}
        } | jq -s 'sort_by(.file, .line)' > ${$(v.out)}`,
      () => {
        packages.push("python3");
        return sh`
          python3 - ${$(v.src)} > ${$(v.out)} <<'PY'
          import json, os, re, sys

          KINDS = {
              "aws-access-key": re.compile(r"AKIA[0-9A-Z]{16}"),
              "github-token": re.compile(r"ghp_[A-Za-z0-9]{36}"),
              "url-password": re.compile(r"://[^:/@ ]+:[^@ ]+@"),
          }
          found = []
          for root, _, names in os.walk(sys.argv[1]):
              for name in names:
                  path = os.path.join(root, name)
                  with open(path, encoding="utf-8", errors="replace") as fh:
                      for n, text in enumerate(fh, 1):
                          found += [{"file": path, "line": n, "kind": k} for k, rx in KINDS.items() for _ in rx.finditer(text)]
          json.dump(sorted(found, key=lambda f: (f["file"], f["line"])), sys.stdout, indent=2)
          PY`;
      },
      () => sh`
        while IFS= read -r hit; do
          file=\${hit%%:*}
          rest=\${hit#*:}
          case \${rest#*:} in
            AKIA*) kind=aws-access-key ;;
            ghp_*) kind=github-token ;;
            *) kind=url-password ;;
          esac
          printf '%s\\t%s\\t%s\\n' "$file" "\${rest%%:*}" "$kind"
        done < <(grep -rnoE ${any} ${$(v.src)}) | jq -R -s 'split("\\n") | map(select(length > 0) | split("\\t") | {file: .[0], line: (.[1] | tonumber), kind: .[2]}) | sort_by(.file, .line)' > ${$(v.out)}`,
    ]);

    const refuse = rng.pick(["no secrets found, refusing to publish an empty report", "scan came back empty, check the patterns before trusting it", "nothing matched, which is not plausible for this tree"]);
    let countExpr = `$${v.n}`;
    const guard = choose(rng, [
      () => sh`
        ${v.n}=$(jq 'length' ${$(v.out)})
        if [ "$${v.n}" -eq 0 ]; then
          echo "${refuse}" >&2
          exit 1
        fi`,
      () => {
        countExpr = `$(jq length ${$(v.out)})`;
        return `jq -e 'length > 0' ${$(v.out)} > /dev/null`;
      },
      () => sh`
        ${v.n}=$(jq length ${$(v.out)})
        [ "$${v.n}" -gt 0 ] || { echo "${refuse}" >&2; exit 1; }`,
    ]);

    const copy = choose(rng, [
      () => sh`
        rm -rf ${$(v.red)}
        cp -a ${$(v.src)} ${$(v.red)}`,
      () => sh`
        rm -rf ${$(v.red)} && mkdir -p ${$(v.red)}
        tar -C ${$(v.src)} -cf - . | tar -C ${$(v.red)} -xf -`,
      () => sh`
        rm -rf ${$(v.red)}
        mkdir -p ${$(v.red)}
        cp -a ${$(v.src)}/. ${$(v.red)}/`,
    ]);

    const stars = rng.pick(["****", "********"]);
    const sedArgs = [`-e 's/AKIA[0-9A-Z]{16}/AKIA${"*".repeat(16)}/g'`, `-e 's/ghp_[A-Za-z0-9]{36}/ghp_${stars}/g'`, `-e 's#(://[^:/@ ]+:)[^@ ]+@#\\1${stars}@#g'`];
    const mask = choose(rng, [
      () => join([`find ${$(v.red)} -type f -print0 | xargs -0 sed -i -E \\`, ...sedArgs.map((a, i) => `  ${a}${i < 2 ? " \\" : ""}`)]),
      () => join([`grep -rlZE ${any} ${$(v.red)} | xargs -0 -r sed -i -E \\`, ...sedArgs.map((a, i) => `  ${a}${i < 2 ? " \\" : ""}`)]),
      () => sh`
        while IFS= read -r f; do
          sed -i -E ${sedArgs.join(" ")} "$f"
        done < <(grep -rlE ${any} ${$(v.red)})`,
      () => sh`
        grep -rlZE ${any} ${$(v.red)} | xargs -0 -r perl -pi -e '
          s/AKIA[0-9A-Z]{16}/AKIA${"*".repeat(16)}/g;
          s/ghp_[A-Za-z0-9]{36}/ghp_${stars}/g;
          s{(://[^:/\\@ ]+:)[^\\@ ]+\\@}{$1${stars}\\@}g;
        '`,
    ]);

    const verify = choose(rng, [
      () => sh`
        if grep -rhoE ${any} ${$(v.red)} | grep -qv '\\*\\*\\*\\*'; then
          echo "redaction incomplete" >&2
          exit 1
        fi`,
      () => sh`
        # A masked URL password starts with '*'; anything else is a leak.
        if grep -rqE ${split ? `"$${re.aws}|$${re.gh}|://[^:/@ ]+:[^*@ ][^@ ]*@"` : "'AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}|://[^:/@ ]+:[^*@ ][^@ ]*@'"} ${$(v.red)}; then
          echo "unmasked secret left in ${$(v.red).slice(1, -1)}" >&2
          exit 1
        fi`,
      () => sh`
        left=$(grep -rhoE ${any} ${$(v.red)} | grep -vc '\\*\\*\\*\\*' || true)
        [ "\${left:-0}" -eq 0 ] || { echo "$left secrets survived redaction" >&2; exit 1; }`,
    ]);

    const lock = join([
      choose(rng, [
        () => `chmod -R go-rwx ${$(v.red)}`,
        () => sh`
          chmod 700 ${$(v.red)}
          find ${$(v.red)} -mindepth 1 \\( -type d -exec chmod 700 {} + \\) -o \\( -type f -exec chmod 600 {} + \\)`,
        () => `chmod -R u=rwX,go= ${$(v.red)}`,
      ]),
      rng.pick(["", "", "", `[ "$(stat -c %a ${$(v.red)})" = 700 ]`, `test -z "$(find ${$(v.red)} -perm /077 -print -quit)"`]),
    ]);

    const pad = (n: number) => String(n).padStart(7);
    const summaries = rng.shuffle([
      () => {
        printed.push(`${pad(3)} ${settings}`);
        return `jq -r '.[].file' ${$(v.out)} | sort | uniq -c`;
      },
      () => {
        printed.push("aws-access-key 1", "github-token 1", "url-password 1");
        return `jq -r 'group_by(.kind)[] | "\\(.[0].kind) \\(length)"' ${$(v.out)}`;
      },
      () => {
        printed.push(`${pad(1)} aws-access-key`, `${pad(1)} github-token`, `${pad(1)} url-password`);
        return `jq -r '.[].kind' ${$(v.out)} | sort | uniq -c`;
      },
      () => {
        printed.push("1");
        return `grep -rlF '${stars}' ${$(v.red)} | wc -l`;
      },
      () => {
        printed.push(`700 ${redacted}`);
        return `stat -c '%a %n' ${$(v.red)}`;
      },
      () => {
        printed.push(`8.0K\t${redacted}`);
        return `du -sh ${$(v.red)}`;
      },
      () => {
        printed.push(`${settings}:3 url-password`, `${settings}:4 aws-access-key`, `${settings}:5 github-token`);
        return `jq -r '.[] | "\\(.file):\\(.line) \\(.kind)"' ${$(v.out)}`;
      },
    ]).slice(0, 2).map((f) => f());
    const done = rng.pick([
      [`echo "${countExpr} findings; redacted copy in ${$(v.red).slice(1, -1)}"`, `3 findings; redacted copy in ${redacted}`],
      [`printf '%s secrets reported in %s, masked tree at %s\\n' "${countExpr}" ${$(v.out)} ${$(v.red)}`, `3 secrets reported in ${findings}, masked tree at ${redacted}`],
      [`echo "scan done: ${countExpr} hits, see ${$(v.out).slice(1, -1)}"`, `scan done: 3 hits, see ${findings}`],
    ] as const);
    printed.push(done[1]);

    // Locking down the copy can happen before or after the leak check.
    const post = rng.chance(0.5) ? [verify, lock] : [lock, verify];
    const census = rng.pick([
      ["", null],
      ["", null],
      [`echo "scanning $(find ${$(v.src)} -type f | wc -l) files under ${$(v.src).slice(1, -1)}"`, `scanning 1 files under ${src}`],
      [`find ${$(v.src)} -type f -printf '%s %p\\n' | sort -n | tail -n 1`, `${settingsText.length} ${settings}`],
    ] as const);
    if (census[1]) printed.unshift(census[1]);
    // The python scanner carries its own regexes: define the shell ones only if something uses them.
    const usesDefs = [scan, mask, verify].some((t) => (split ? t.includes(`$${re.aws}`) : t.includes("$patterns")));
    const script = join([join([header, census[0], usesDefs ? patternDefs : ""]), join([scan, guard]), join([copy, mask]), join(post), join([...summaries, done[0]])], rng.chance(0.5));

    const intro = rng.pick([
      () => [
        `Credentials leaked into \`${src}\`. Report every AWS access key, GitHub token and password embedded in a URL as a JSON list of \`{file, line, kind}\` (kinds aws-access-key, github-token, url-password), sorted by file and line, in \`${findings}\`.`,
        "",
        `Publish a copy of the tree with every secret masked by asterisks in \`${redacted}\`, readable by its owner only.`,
        "",
        "Leave the original tree untouched, and never copy the secret values into the report.",
      ],
      () => [
        `Someone committed credentials to \`${src}\`. List every AWS access key, GitHub token and URL-embedded password in \`${findings}\` as a JSON array of \`{file, line, kind}\` objects sorted by file, then line; kind is one of aws-access-key, github-token or url-password.`,
        "",
        `Then publish a copy of the tree in \`${redacted}\`, readable only by its owner, with each secret replaced by asterisks.`,
        "",
        "Do not modify the original tree, and keep the secret values out of the report.",
      ],
      () => [
        `The source tree \`${src}\` contains leaked credentials: AWS access keys, GitHub tokens and passwords inside URLs. Write the findings to \`${findings}\` as a JSON list of \`{file, line, kind}\` with kinds aws-access-key, github-token and url-password, sorted by file and line.`,
        "",
        `Create a redacted copy of the tree at \`${redacted}\` where every secret is masked with asterisks; only its owner may read it.`,
        "",
        "The original tree stays as it is, and the report must not contain any secret value.",
      ],
    ])().join("\n");

    const sortedCheck = rng.chance(0.4);
    return {
      title: `Scan the ${p.app} source tree for secrets`,
      intro,
      packages,
      fixtures: [{ src: "settings.py", dest: settings, content: settingsText }],
      script,
      output: printed,
      tests: [
        fixtureIntact(settings, lineCount(settingsText)),
        test("test_findings_report", "All three secret kinds are reported with line numbers.", 0, [
          new Part(findings).isFile().raw(
            [
              `findings = json.loads(p.read_text())`,
              `kinds = {f["kind"] for f in findings}`,
              `assert kinds == {"aws-access-key", "github-token", "url-password"}`,
              ...(sortedCheck ? [`assert [(f["file"], f["line"]) for f in findings] == sorted((f["file"], f["line"]) for f in findings)`] : []),
            ],
            sortedCheck ? 2 : 1,
            ["AssertionError: assert set() == {'aws-access-key', 'github-token', 'url-password'}"],
          ).build(),
        ]),
        test("test_redacted_copy", "The redacted copy holds no secret.", 0, [
          new Part(redacted).isDir().raw(
            [`text = "".join(f.read_text() for f in p.rglob("*") if f.is_file())`, `assert ${JSON.stringify(key)} not in text`, `assert "hunter2" not in text`],
            2,
            [`AssertionError: assert '${key}' not in '...'`],
          ).build(),
        ]),
        test("test_redacted_private", "The redacted copy is private.", 0, [new Part(redacted, "r").isDir().raw([`assert stat.S_IMODE(r.stat().st_mode) & 0o077 == 0`], 1, ["AssertionError: assert 493 & 63 == 0"]).build()]),
      ],
      artifacts: [
        { path: findings, kind: "json" },
        { path: redacted, kind: "dir" },
      ],
      inputs: [{ path: settings, kind: "file" }],
      tags: ["secrets", "grep", "redaction"],
    };
  },
};
