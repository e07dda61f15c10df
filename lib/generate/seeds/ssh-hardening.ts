// Security seed: harden sshd through a drop-in over a permissive baseline and record the effective
// settings; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, join } from "./compose";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

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
