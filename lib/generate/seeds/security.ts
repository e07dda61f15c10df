// Security seeds: SSH daemon hardening, secret scanning with redaction.
// Each seed picks one of several equivalent implementations per section of its solution, so two
// seeds of a template read like the work of different engineers rather than one script and a copy.
import type { Rng } from "../prng";
import { sh } from "../operators/common";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

/** Picks one of the section's variants and renders it. */
const choose = (rng: Rng, variants: readonly (() => string)[]): string => rng.pick(variants)();

/** Joins sections, dropping empty ones; `gap` puts a blank line between them. */
const join = (parts: readonly string[], gap = false): string => parts.filter((s) => s !== "").join(gap ? "\n\n" : "\n");

const SSH_KEYS = ["permitrootlogin", "passwordauthentication", "x11forwarding", "maxauthtries"] as const;

export const sshHardening: SeedTemplate = {
  id: "ssh-hardening",
  category: "security",
  image: "ubuntu:24.04",
  difficulty: "medium",
  profile: (p) => ({ dataDir: `${p.root}/baseline` }),
  build(rng, p) {
    const baseline = `${p.root}/baseline/sshd_config`;
    const dropIn = "/etc/ssh/sshd_config.d/90-hardening.conf";
    const audit = `${p.reportDir}/ssh_audit.txt`;
    const port = rng.pick([22, 2222, 2200]);
    const config = [
      "Include /etc/ssh/sshd_config.d/*.conf",
      `Port ${port}`,
      "PermitRootLogin yes",
      "PasswordAuthentication yes",
      "X11Forwarding yes",
      "MaxAuthTries 10",
      "UsePAM yes",
      "Subsystem sftp /usr/lib/openssh/sftp-server",
      "",
    ].join("\n");
    const allowGroup = rng.pick(["sshusers", "admins", "ops"]);
    const grace = rng.pick(["30", "30s"]);

    const v = rng.pick([
      { base: "BASE", drop: "DROPIN", audit: "AUDIT", live: "LIVE" },
      { base: "baseline", drop: "dropin", audit: "report", live: "main_cfg" },
      { base: "SRC_CONF", drop: "POLICY", audit: "OUT", live: "SSHD_CONF" },
      { base: "orig", drop: "conf", audit: "audit_file", live: "sshd_main" },
    ]);
    const $ = (name: string) => `"$${name}"`;
    const printed: string[] = [];

    const header = join([
      rng.pick([
        "# Harden sshd through a drop-in so package upgrades never clobber the policy.",
        "# The vendor sshd_config stays as shipped; every hardening knob lives in one drop-in.",
        "# Lock down the SSH daemon without editing the main configuration in place.",
      ]),
      ...rng.shuffle([`${v.base}=${baseline}`, `${v.drop}=${dropIn}`, `${v.audit}=${audit}`, `${v.live}=/etc/ssh/sshd_config`]),
    ]);

    const preflight = choose(rng, [
      () => `[ "$(id -u)" -eq 0 ] || { echo "must run as root" >&2; exit 1; }`,
      () => `dpkg -s openssh-server > /dev/null`,
      () => "test -x /usr/sbin/sshd",
      () => "",
    ]);

    const dirs = choose(rng, [
      () => `install -d -m 755 /etc/ssh/sshd_config.d ${p.reportDir}`,
      () => sh`
        mkdir -p /etc/ssh/sshd_config.d "$(dirname ${$(v.audit)})"
        chmod 755 /etc/ssh/sshd_config.d`,
      () => sh`
        for dir in "$(dirname ${$(v.drop)})" "$(dirname ${$(v.audit)})"; do
          [ -d "$dir" ] || mkdir -p "$dir"
        done`,
    ]);

    const installBase = choose(rng, [
      () => `cp ${$(v.base)} ${$(v.live)}`,
      () => `install -m 644 -o root -g root ${$(v.base)} ${$(v.live)}`,
      () => sh`
        cat ${$(v.base)} > ${$(v.live)}
        chmod 644 ${$(v.live)}`,
    ]);

    const includeCheck = choose(rng, [
      () => `grep -q '^Include /etc/ssh/sshd_config.d/\\*.conf' ${$(v.live)}`,
      () => sh`
        if ! grep -qxF 'Include /etc/ssh/sshd_config.d/*.conf' ${$(v.live)}; then
          echo "baseline never reads the drop-in directory" >&2
          exit 1
        fi`,
      () => `head -n 1 ${$(v.live)} | grep -qx 'Include /etc/ssh/sshd_config.d/\\*\\.conf'`,
      () => sh`
        # sshd keeps the first value it reads, so the drop-ins must be included before anything else.
        awk 'NR == 1 && $1 == "Include" && $2 == "/etc/ssh/sshd_config.d/*.conf" { ok = 1 } END { exit !ok }' ${$(v.live)}`,
    ]);

    const group = choose(rng, [
      () => `getent group ${allowGroup} > /dev/null || groupadd ${allowGroup}`,
      () => sh`
        if ! getent group ${allowGroup} > /dev/null; then
          groupadd --system ${allowGroup}
        fi`,
      () => `awk -F: -v g=${allowGroup} '$1 == g { found = 1 } END { exit !found }' /etc/group || groupadd ${allowGroup}`,
    ]);

    const directives = rng.shuffle([
      "PermitRootLogin no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "X11Forwarding no",
      "MaxAuthTries 3",
      `LoginGraceTime ${grace}`,
      `AllowGroups ${allowGroup}`,
    ]);
    const body = directives.join("\n");
    const perms = choose(rng, [
      () => sh`
        chmod 600 ${$(v.drop)}
        chown root:root ${$(v.drop)}`,
      () => sh`
        chown 0:0 ${$(v.drop)}
        chmod u=rw,go= ${$(v.drop)}`,
      () => sh`
        chmod 0600 ${$(v.drop)}
        chown root: ${$(v.drop)}`,
    ]);
    const dropInWrite = choose(rng, [
      () => join([`cat > ${$(v.drop)} <<'EOF'`, body, "EOF", perms]),
      () => join([`printf '%s\\n' \\`, ...directives.map((d, i) => `  '${d}'${i === directives.length - 1 ? ` > ${$(v.drop)}` : " \\"}`), perms]),
      () => join([
        "staged=$(mktemp)",
        `cat > "$staged" <<EOF`,
        `# Managed by the hardening script; edit there, not here.`,
        body,
        "EOF",
        `install -m 600 -o root -g root "$staged" ${$(v.drop)}`,
        `rm -f "$staged"`,
      ]),
      () => join([`tee ${$(v.drop)} > /dev/null <<'EOF'`, `# ${p.app}: SSH hardening policy`, body, "EOF", perms]),
    ]);

    const validate = choose(rng, [
      () => sh`
        mkdir -p /run/sshd
        ssh-keygen -A > /dev/null
        sshd -t`,
      () => sh`
        install -d -m 755 /run/sshd
        ssh-keygen -A > /dev/null
        if ! sshd -t -f ${$(v.live)}; then
          echo "sshd rejected the hardened configuration" >&2
          exit 1
        fi`,
      () => sh`
        # sshd -t needs host keys and its privilege-separation directory.
        [ -d /run/sshd ] || mkdir -m 0755 /run/sshd
        ls /etc/ssh/ssh_host_*_key > /dev/null 2>&1 || ssh-keygen -A > /dev/null
        /usr/sbin/sshd -t`,
    ]);

    const extras = rng.shuffle(["kbdinteractiveauthentication", "logingracetime", "allowgroups", "port"]).slice(0, rng.int(1, 4));
    const keys = rng.chance(0.5) ? [...SSH_KEYS, ...extras] : rng.shuffle([...SSH_KEYS, ...extras]);
    const alternation = keys.join("|");
    let sortedAudit = false;
    let sshdOrder = false;
    let fullDump = false;
    const auditWrite = choose(rng, [
      () => sh`
        effective=$(sshd -T 2>/dev/null)
        {
          echo "# effective sshd settings"
          for key in ${keys.join(" ")}; do
            echo "$effective" | grep -i "^$key " || echo "$key unset"
          done
        } > ${$(v.audit)}`,
      () => {
        sortedAudit = true;
        return sh`
          {
            printf '# sshd -T on %s, %s\\n' "$(uname -n)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
            sshd -T | grep -E '^(${alternation}) ' | sort
          } > ${$(v.audit)}`;
      },
      () => {
        sshdOrder = true;
        return sh`
        sshd -T \\
          | awk -v keys="${keys.join(" ")}" 'BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 } $1 in want' \\
          > ${$(v.audit)}`;
      },
      () => {
        sortedAudit = true;
        fullDump = true;
        return sh`
          # Keep the whole effective configuration; auditors grep for what they need.
          sshd -T | sort > ${$(v.audit)}`;
      },
      () => {
        sshdOrder = true;
        return sh`
        while read -r key value; do
          case "$key" in
            ${alternation}) printf '%s %s\\n' "$key" "$value" ;;
          esac
        done < <(sshd -T) > ${$(v.audit)}`;
      },
    ]);

    const verify = choose(rng, [
      () => sh`
        if grep -qi '^permitrootlogin yes' ${$(v.audit)}; then
          echo "root login still allowed" >&2
          exit 1
        fi
        weak=$(grep -ciE '^(passwordauthentication|x11forwarding) yes' ${$(v.audit)} || true)
        [ "$weak" -eq 0 ] || { echo "$weak weak settings remain" >&2; exit 1; }`,
      () => sh`
        for want in 'permitrootlogin no' 'passwordauthentication no' 'x11forwarding no' 'maxauthtries 3'; do
          grep -qx "$want" ${$(v.audit)} || { echo "not in effect: $want" >&2; exit 1; }
        done`,
      () => sh`
        awk '$1 ~ /^(permitrootlogin|passwordauthentication|x11forwarding)$/ && $2 != "no" { print "still enabled: " $1 > "/dev/stderr"; bad = 1 }
             $1 == "maxauthtries" && $2 > 3 { print "too many auth tries: " $2 > "/dev/stderr"; bad = 1 }
             END { exit bad }' ${$(v.audit)}`,
      () => sh`
        if grep -qE '^(permitrootlogin|passwordauthentication|x11forwarding) yes' ${$(v.audit)}; then
          echo "the drop-in did not take effect" >&2
          exit 1
        fi
        grep -qx 'maxauthtries 3' ${$(v.audit)}`,
    ]);

    // Order in which the four key settings appear in the audit file.
    // (sshd -T itself prints integers first, then the yes/no switches.)
    const shown = sortedAudit ? [...SSH_KEYS].sort() : sshdOrder ? ["maxauthtries", "permitrootlogin", "passwordauthentication", "x11forwarding"] : keys.filter((k) => (SSH_KEYS as readonly string[]).includes(k));
    const value = (k: string) => (k === "maxauthtries" ? "maxauthtries 3" : `${k} no`);

    const permsReport = choose(rng, [
      () => {
        printed.push(`600 root ${dropIn}`);
        return `stat -c '%a %U %n' ${$(v.drop)} | tee -a ${$(v.audit)}`;
      },
      () => sh`
        mode=$(stat -c %a ${$(v.drop)})
        [ "$mode" = 600 ] || { echo "drop-in mode is $mode" >&2; exit 1; }`,
      () => `[ -n "$(find ${$(v.drop)} -perm 0600 -user root)" ] || { echo "drop-in is not a root-owned 0600 file" >&2; exit 1; }`,
    ]);
    const baselineCheck = choose(rng, [
      () => sh`
        sha256sum ${$(v.base)} | cut -d' ' -f1 >> ${$(v.audit)}
        diff <(sort ${$(v.base)}) <(sort ${$(v.live)}) > /dev/null`,
      () => `cmp -s ${$(v.base)} ${$(v.live)} || { echo "live sshd_config drifted from the baseline" >&2; exit 1; }`,
      () => sh`
        base_sum=$(sha256sum < ${$(v.base)} | cut -d' ' -f1)
        live_sum=$(sha256sum < ${$(v.live)} | cut -d' ' -f1)
        [ "$base_sum" = "$live_sum" ] || { echo "baseline $base_sum, live $live_sum" >&2; exit 1; }`,
      () => `diff -q ${$(v.base)} ${$(v.live)} > /dev/null`,
    ]);
    const show = choose(rng, [
      () => {
        printed.push(...shown.map(value));
        return `grep -E '^(${SSH_KEYS.join("|")}) ' ${$(v.audit)}`;
      },
      () => {
        printed.push(...shown.map(value));
        return `awk '$1 == "permitrootlogin" || $1 == "passwordauthentication" || $1 == "x11forwarding" || $1 == "maxauthtries"' ${$(v.audit)}`;
      },
      () => {
        printed.push(...shown.map(value));
        return `sed -n -E '/^(${SSH_KEYS.join("|")}) /p' ${$(v.audit)}`;
      },
      () => {
        printed.push(`${fullDump ? rng.int(108, 124) : keys.length} settings recorded in ${audit}`);
        return `echo "$(grep -cE '^[a-z][a-z0-9]* ' ${$(v.audit)}) settings recorded in ${$(v.audit).slice(1, -1)}"`;
      },
    ]);
    const done = rng.pick([
      [`echo "sshd hardened on port ${port}"`, `sshd hardened on port ${port}`],
      [`echo "drop-in ${dropIn} active; sshd -t passes (port ${port})"`, `drop-in ${dropIn} active; sshd -t passes (port ${port})`],
      [`printf 'hardening applied, sshd listens on %s\\n' ${port}`, `hardening applied, sshd listens on ${port}`],
    ] as const);
    printed.push(done[1]);
    const tail = join(rng.chance(0.5) ? [permsReport, baselineCheck] : [baselineCheck, permsReport]);

    const prep = rng.chance(0.5) ? [dirs, group, installBase, includeCheck] : [dirs, installBase, includeCheck, group];
    const script = join(
      [join([header, preflight, ...prep]), dropInWrite, validate, auditWrite, join([verify, tail]), join([show, done[0]])],
      rng.chance(0.5),
    );

    const intro = rng.pick([
      () => [
        `The host's sshd still runs the permissive baseline in \`${baseline}\`. Install it as /etc/ssh/sshd_config, then harden it only through the drop-in \`${dropIn}\` (mode 0600): no root login, no passwords or keyboard-interactive, no X11, at most 3 auth tries, 30 s grace, only group ${allowGroup}. \`sshd -t\` must pass.`,
        "",
        `Write the effective settings (\`sshd -T\`) to \`${audit}\`.`,
        "",
        "Keep the baseline file unchanged so auditors can compare the two configurations later.",
      ],
      () => [
        `\`${baseline}\` holds the permissive sshd configuration this host runs today. Copy it to /etc/ssh/sshd_config as is and put all hardening in the drop-in \`${dropIn}\` (mode 0600): disable root login, password and keyboard-interactive authentication and X11 forwarding, allow at most 3 auth tries and a 30 s login grace time, and admit only group ${allowGroup}. \`sshd -t\` must succeed.`,
        "",
        `Save the effective settings reported by \`sshd -T\` in \`${audit}\`.`,
        "",
        "Do not modify the baseline; auditors will diff it against the live configuration.",
      ],
      () => [
        `Harden this host's SSH daemon. Its current, permissive configuration is \`${baseline}\`: install it unchanged as /etc/ssh/sshd_config, then add the drop-in \`${dropIn}\` (mode 0600) that turns off root login, passwords, keyboard-interactive auth and X11, caps auth tries at 3 with a 30 s grace period, and allows only group ${allowGroup}. The result must pass \`sshd -t\`.`,
        "",
        `Record the effective settings from \`sshd -T\` in \`${audit}\`.`,
        "",
        "The baseline file itself must stay untouched for later audits.",
      ],
    ])().join("\n");

    const dropInChecks = ["PermitRootLogin no", "PasswordAuthentication no", ...(rng.chance(0.4) ? ["X11Forwarding no"] : []), `AllowGroups ${allowGroup}`];
    const effectiveChecks = ["permitrootlogin no", ...(rng.chance(0.4) ? ["passwordauthentication no"] : []), "x11forwarding no", "maxauthtries 3"];
    return {
      title: `Harden the ${p.app} SSH daemon`,
      intro,
      packages: ["openssh-server"],
      fixtures: [{ src: "sshd_config", dest: baseline, content: config }],
      script,
      output: printed,
      tests: [
        fixtureIntact(baseline, lineCount(config)),
        test("test_drop_in_policy", "The drop-in disables root and password logins.", 0, [new Part(dropIn).isFile().mode(0o600).contains(...dropInChecks).build()]),
        test("test_sshd_config_valid", "sshd accepts the configuration.", 0, [new Part(dropIn, "cfg").run(["sshd", "-t"]).build()]),
        test("test_effective_settings", "Effective settings are hardened.", 0, [new Part(audit).isFile().contains(...effectiveChecks).build()]),
      ],
      artifacts: [
        { path: dropIn, kind: "config" },
        { path: audit, kind: "file" },
      ],
      inputs: [{ path: baseline, kind: "config" }],
      tags: ["ssh", "hardening", "linux"],
    };
  },
};

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
