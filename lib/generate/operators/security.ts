// Security operators: TLS certificates, SSH deploy keys, basic auth, signed manifests.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { free, opResult, sh } from "./common";

export const selfSignedCert: Operator = {
  id: "self-signed-cert",
  theme: "security",
  applies: (c) => free(c, `/etc/ssl/${c.profile.app}/server.crt`),
  build(c) {
    const { app } = c.profile;
    const dir = `/etc/ssl/${app}`;
    const crt = `${dir}/server.crt`;
    const key = `${dir}/server.key`;
    const days = c.rng.pick([90, 365, 825]);
    const bits = c.rng.pick([2048, 3072]);
    const step = sh`
      # TLS for the internal endpoint: self-signed ${bits}-bit RSA, SAN for ${app}.internal.
      SSL_DIR=${dir}
      install -d -m 750 "$SSL_DIR"
      openssl req -x509 -newkey rsa:${bits} -sha256 -nodes -days ${days} \\
        -keyout ${key} -out ${crt} \\
        -subj "/CN=${app}.internal/O=${app}" \\
        -addext "subjectAltName=DNS:${app}.internal,DNS:localhost,IP:127.0.0.1" 2>/dev/null
      chmod 600 ${key}
      chmod 644 ${crt}
      openssl x509 -in ${crt} -noout -subject -enddate
      openssl x509 -in ${crt} -noout -ext subjectAltName | tail -n 1
      crt_mod=$(openssl x509 -in ${crt} -noout -modulus | openssl md5)
      key_mod=$(openssl rsa -in ${key} -noout -modulus | openssl md5)
      if [ "$crt_mod" != "$key_mod" ]; then
        echo "key does not match certificate" >&2
        exit 1
      fi
      openssl verify -CAfile ${crt} ${crt}
      echo "certificate valid for ${days} days"`;
    return opResult(this.id, {
      step,
      output: [`subject=CN = ${app}.internal, O = ${app}`, `notAfter=Jan  1 00:00:00 2027 GMT`, `    DNS:${app}.internal, DNS:localhost, IP Address:127.0.0.1`, `${crt}: OK`, `certificate valid for ${days} days`],
      primary: { path: crt, kind: "file" },
      secondary: { path: key, kind: "file" },
      testName: "test_tls_certificate",
      testDoc: `The certificate names ${app}.internal and matches its key.`,
      primaryPart: new Part(crt).isFile().run(["openssl", "x509", "-in", crt, "-noout", "-ext", "subjectAltName"], `DNS:${app}.internal`).build(),
      secondaryPart: new Part(key, "key").isFile().mode(0o600).raw(
        [
          `mod = lambda *a: subprocess.run(["openssl", *a, "-noout", "-modulus"], capture_output=True, text=True).stdout`,
          `assert mod("rsa", "-in", str(key)) == mod("x509", "-in", ${JSON.stringify(crt)})`,
        ],
        1,
        ["AssertionError: assert '' == 'Modulus=C3A1...'"],
      ).build(),
      need: `Create a self-signed ${bits}-bit RSA certificate \`${crt}\` for ${app}.internal (SAN localhost, 127.0.0.1), valid ${days} days.`,
      needSecondary: `Its private key \`${key}\` must match and be mode 0600.`,
      label: "TLS certificate",
      packages: ["openssl"],
    });
  },
};

export const sshDeployKey: Operator = {
  id: "ssh-deploy-key",
  theme: "security",
  applies: (c) => free(c, `/root/.ssh/${c.profile.app}_deploy`),
  build(c) {
    const { app } = c.profile;
    const key = `/root/.ssh/${app}_deploy`;
    const auth = "/root/.ssh/authorized_keys";
    const from = c.rng.pick(["10.0.0.0/8", "192.168.0.0/16", "172.16.0.0/12"]);
    const step = sh`
      # Deploy key restricted to one source network and no interactive features.
      install -d -m 700 /root/.ssh
      KEY=${key}
      rm -f "$KEY" "$KEY.pub"
      ssh-keygen -q -t ed25519 -N '' -C "${app}-deploy" -f "$KEY"
      chmod 600 "$KEY"
      fingerprint=$(ssh-keygen -lf "$KEY.pub" | awk '{print $2}')
      touch ${auth}
      chmod 600 ${auth}
      sed -i '/${app}-deploy$/d' ${auth}
      printf 'from="${from}",no-pty,no-agent-forwarding,no-port-forwarding %s\\n' "$(cat "$KEY.pub")" >> ${auth}
      grep -c '${app}-deploy' ${auth}
      derived=$(ssh-keygen -y -f "$KEY" | cut -d' ' -f2)
      stored=$(cut -d' ' -f2 "$KEY.pub")
      if [ "$derived" != "$stored" ]; then
        echo "public key does not match $KEY" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: ["1"],
      primary: { path: key, kind: "file" },
      secondary: { path: auth, kind: "config" },
      testName: "test_deploy_key",
      testDoc: "The ed25519 deploy key exists with private permissions.",
      primaryPart: new Part(key).isFile().mode(0o600).run(["ssh-keygen", "-lf", `${key}.pub`], "ED25519").build(),
      secondaryPart: new Part(auth, "ak").isFile().contains(`from="${from}",no-pty`, `${app}-deploy`).build(),
      need: `Generate an ed25519 deploy key \`${key}\` with public half ${key}.pub (comment ${app}-deploy, mode 0600).`,
      needSecondary: `Authorise it in \`${auth}\` only from ${from} with no-pty, no agent or port forwarding.`,
      label: "deploy key",
      packages: ["openssh-client"],
    });
  },
};

export const basicAuth: Operator = {
  id: "basic-auth",
  theme: "security",
  applies: (c) => free(c, `/etc/${c.profile.app}/htpasswd`),
  build(c) {
    const { app, user, root } = c.profile;
    const file = `/etc/${app}/htpasswd`;
    const creds = `${root}/secrets/${user}.password`;
    const step = sh`
      # Basic auth for the report endpoint: bcrypt hashes, random password kept root-only.
      HTPASSWD=${file}
      install -d -m 750 /etc/${app} ${root}/secrets
      password=$(openssl rand -base64 18 | tr -d '\\n')
      umask 077
      printf '%s\\n' "$password" > ${creds}
      umask 022
      htpasswd -bBc -C 10 "$HTPASSWD" ${user} "$password"
      htpasswd -vb "$HTPASSWD" ${user} "$password"
      chown root:www-data "$HTPASSWD" 2>/dev/null || chown root:root "$HTPASSWD"
      chmod 640 "$HTPASSWD"
      entries=$(grep -c ':\\$2y\\$' "$HTPASSWD")
      [ "$entries" -eq 1 ] || { echo "expected one bcrypt entry" >&2; exit 1; }
      for f in "$HTPASSWD" ${creds}; do
        stat -c '%a %n' "$f"
      done
      echo "basic auth ready for ${user}"`;
    return opResult(this.id, {
      step,
      output: [`Adding password for user ${user}`, `Password for user ${user} correct.`, `640 ${file}`, `600 ${creds}`, `basic auth ready for ${user}`],
      primary: { path: file, kind: "config" },
      secondary: { path: creds, kind: "file" },
      testName: "test_basic_auth",
      testDoc: `${user} has a bcrypt entry that verifies against the stored password.`,
      primaryPart: new Part(file).isFile().mode(0o640).matches(`^${user}:\\$2y\\$10\\$`, "bcrypt entry").build(),
      secondaryPart: new Part(creds, "pw").isFile().mode(0o600).raw(
        [`assert subprocess.run(["htpasswd", "-vb", ${JSON.stringify(file)}, ${JSON.stringify(user)}, pw.read_text().strip()]).returncode == 0`],
        1,
        ["AssertionError: assert 3 == 0"],
      ).build(),
      need: `Create \`${file}\` (mode 0640) with a bcrypt (cost 10) entry for ${user}.`,
      needSecondary: `Store the random password in \`${creds}\` (mode 0600).`,
      label: "basic auth",
      packages: ["apache2-utils", "openssl"],
    });
  },
};

export const signedManifest: Operator = {
  id: "signed-manifest",
  theme: "security",
  applies: (c) => free(c, `${c.profile.root}/MANIFEST.sha512`),
  build(c) {
    const { root, reportDir, app } = c.profile;
    const manifest = `${root}/MANIFEST.sha512`;
    const sig = `${root}/MANIFEST.sha512.asc`;
    const step = sh`
      # Tamper evidence: SHA-512 manifest of the reports, detached-signed with a throwaway key.
      export GNUPGHOME=$(mktemp -d)
      chmod 700 "$GNUPGHOME"
      gpg --batch --quiet --passphrase '' --quick-generate-key "${app} release <release@${app}.internal>" ed25519 sign 1d
      cd ${reportDir}
      find . -type f -print0 | sort -z | xargs -0 sha512sum > ${manifest}
      cd - > /dev/null
      (cd ${reportDir} && sha512sum --quiet -c ${manifest})
      gpg --batch --yes --armor --detach-sign --output ${sig} ${manifest}
      gpg --batch --verify ${sig} ${manifest}
      gpg --batch --armor --export "release@${app}.internal" > ${root}/release-key.asc
      entries=$(wc -l < ${manifest})
      if [ "$entries" -eq 0 ]; then
        echo "nothing to sign under ${reportDir}" >&2
        exit 1
      fi
      rm -rf "$GNUPGHOME"`;
    return opResult(this.id, {
      step,
      output: [`gpg: Good signature from "${app} release <release@${app}.internal>" [ultimate]`],
      primary: { path: manifest, kind: "file" },
      secondary: { path: sig, kind: "file" },
      testName: "test_signed_manifest",
      testDoc: "Every report is listed with its SHA-512 and the manifest is signed.",
      primaryPart: new Part(manifest).isFile().matches("^[0-9a-f]{128}  \\./", "sha512 line").build(),
      secondaryPart: new Part(sig, "sig").isFile().contains("BEGIN PGP SIGNATURE").raw(
        [`assert Path(${JSON.stringify(`${root}/release-key.asc`)}).read_text().startswith("-----BEGIN PGP PUBLIC KEY BLOCK")`],
        1,
        ["FileNotFoundError: [Errno 2] No such file or directory"],
      ).build(),
      need: `List every file under ${reportDir} with its SHA-512 in \`${manifest}\`.`,
      needSecondary: `Detach-sign it as \`${sig}\` and export the public key to ${root}/release-key.asc.`,
      label: "signed manifest",
      packages: ["gnupg"],
    });
  },
};
