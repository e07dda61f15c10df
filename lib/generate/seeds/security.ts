// Security seeds: SSH daemon hardening, secret scanning with redaction.
import { sh } from "../operators/common";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

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
    const script = sh`
      # Harden sshd through a drop-in so package upgrades never clobber the policy.
      BASE=${baseline}
      DROPIN=${dropIn}
      AUDIT=${audit}
      install -d -m 755 /etc/ssh/sshd_config.d ${p.reportDir}
      cp "$BASE" /etc/ssh/sshd_config
      grep -q '^Include /etc/ssh/sshd_config.d/\\*.conf' /etc/ssh/sshd_config
      getent group ${allowGroup} > /dev/null || groupadd ${allowGroup}
      cat > "$DROPIN" <<'EOF'
      PermitRootLogin no
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      X11Forwarding no
      MaxAuthTries 3
      LoginGraceTime 30
      AllowGroups ${allowGroup}
      EOF
      chmod 600 "$DROPIN"
      chown root:root "$DROPIN"
      mkdir -p /run/sshd
      ssh-keygen -A > /dev/null
      sshd -t
      effective=$(sshd -T 2>/dev/null)
      {
        echo "# effective sshd settings"
        for key in permitrootlogin passwordauthentication x11forwarding maxauthtries allowgroups port; do
          echo "$effective" | grep -i "^$key " || echo "$key unset"
        done
      } > "$AUDIT"
      if grep -qi '^permitrootlogin yes' "$AUDIT"; then
        echo "root login still allowed" >&2
        exit 1
      fi
      weak=$(grep -ciE '^(passwordauthentication|x11forwarding) yes' "$AUDIT" || true)
      [ "$weak" -eq 0 ] || { echo "$weak weak settings remain" >&2; exit 1; }
      stat -c '%a %U %n' "$DROPIN" | tee -a "$AUDIT"
      sha256sum "$BASE" | cut -d' ' -f1 >> "$AUDIT"
      diff <(sort "$BASE") <(sort /etc/ssh/sshd_config) > /dev/null
      sed -n '2,7p' "$AUDIT"
      echo "sshd hardened on port ${port}"`;
    return {
      title: `Harden the ${p.app} SSH daemon`,
      intro: [
        `The host's sshd still runs the permissive baseline in \`${baseline}\`. Install it as /etc/ssh/sshd_config, then harden it only through the drop-in \`${dropIn}\` (mode 0600): no root login, no passwords or keyboard-interactive, no X11, at most 3 auth tries, 30 s grace, only group ${allowGroup}. \`sshd -t\` must pass.`,
        "",
        `Write the effective settings (\`sshd -T\`) to \`${audit}\`.`,
        "",
        "Keep the baseline file unchanged so auditors can compare the two configurations later.",
      ].join("\n"),
      packages: ["openssh-server"],
      fixtures: [{ src: "sshd_config", dest: baseline, content: config }],
      script,
      output: ["permitrootlogin no", "passwordauthentication no", "x11forwarding no", "maxauthtries 3", `sshd hardened on port ${port}`],
      tests: [
        fixtureIntact(baseline, lineCount(config)),
        test("test_drop_in_policy", "The drop-in disables root and password logins.", 0, [
          new Part(dropIn).isFile().mode(0o600).contains("PermitRootLogin no", "PasswordAuthentication no", `AllowGroups ${allowGroup}`).build(),
        ]),
        test("test_sshd_config_valid", "sshd accepts the configuration.", 0, [new Part(dropIn, "cfg").run(["sshd", "-t"]).build()]),
        test("test_effective_settings", "Effective settings are hardened.", 0, [
          new Part(audit).isFile().contains("permitrootlogin no", "x11forwarding no", "maxauthtries 3").build(),
        ]),
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
    const script = sh`
      # Find credentials in the source tree, report them, and publish a redacted copy.
      SRC=${src}
      OUT=${findings}
      REDACTED=${redacted}
      mkdir -p ${p.reportDir}
      patterns='AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}|://[^:/@ ]+:[^@ ]+@'
      # file:line:match → JSON objects with the kind of secret.
      grep -rnoE "$patterns" "$SRC" \\
        | awk -F: '
            {
              m = substr($0, length($1) + length($2) + 3)
              if (m ~ /^AKIA/) kind = "aws-access-key"
              else if (m ~ /^ghp_/) kind = "github-token"
              else kind = "url-password"
              printf "{\\"file\\": \\"%s\\", \\"line\\": %d, \\"kind\\": \\"%s\\"}\\n", $1, $2, kind
            }' \\
        | jq -s 'sort_by(.file, .line)' > "$OUT"
      count=$(jq 'length' "$OUT")
      if [ "$count" -eq 0 ]; then
        echo "no secrets found, refusing to publish an empty report" >&2
        exit 1
      fi
      rm -rf "$REDACTED"
      cp -a "$SRC" "$REDACTED"
      find "$REDACTED" -type f -print0 | xargs -0 sed -i -E \\
        -e 's/AKIA[0-9A-Z]{16}/AKIA****************/g' \\
        -e 's/ghp_[A-Za-z0-9]{36}/ghp_****/g' \\
        -e 's#(://[^:/@ ]+:)[^@ ]+@#\\1****@#g'
      if grep -rhoE "$patterns" "$REDACTED" | grep -qv '\\*\\*\\*\\*'; then
        echo "redaction incomplete" >&2
        exit 1
      fi
      chmod -R go-rwx "$REDACTED"
      jq -r '.[].file' "$OUT" | sort | uniq -c
      jq -r 'group_by(.kind)[] | "\\(.[0].kind) \\(length)"' "$OUT"
      diff -rq "$SRC" "$REDACTED" | wc -l
      echo "$count findings; redacted copy in $REDACTED"`;
    return {
      title: `Scan the ${p.app} source tree for secrets`,
      intro: [
        `Credentials leaked into \`${src}\`. Report every AWS access key, GitHub token and password embedded in a URL as a JSON list of \`{file, line, kind}\` (kinds aws-access-key, github-token, url-password), sorted by file and line, in \`${findings}\`.`,
        "",
        `Publish a copy of the tree with every secret masked by asterisks in \`${redacted}\`, readable by its owner only.`,
        "",
        "Leave the original tree untouched, and never copy the secret values into the report.",
      ].join("\n"),
      packages: ["jq"],
      fixtures: [{ src: "settings.py", dest: settings, content: settingsText }],
      script,
      output: ["aws-access-key 1", "github-token 1", "url-password 1", "1", `3 findings; redacted copy in ${redacted}`],
      tests: [
        fixtureIntact(settings, lineCount(settingsText)),
        test("test_findings_report", "All three secret kinds are reported with line numbers.", 0, [
          new Part(findings).isFile().raw(
            [`kinds = {f["kind"] for f in json.loads(p.read_text())}`, `assert kinds == {"aws-access-key", "github-token", "url-password"}`],
            1,
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
