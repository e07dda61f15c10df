// Service operators: nginx sites, supervisord programs, iptables rules, env templating.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { free, opResult, sh } from "./common";

export const nginxReportSite: Operator = {
  id: "nginx-report-site",
  theme: "services",
  applies: (c) => free(c, `/etc/nginx/sites-available/${c.profile.app}-reports.conf`),
  build(c) {
    const { app, reportDir } = c.profile;
    const port = 8000 + c.rng.int(10, 899);
    const site = `/etc/nginx/sites-available/${app}-reports.conf`;
    const enabled = `/etc/nginx/sites-enabled/${app}-reports.conf`;
    const step = sh`
      # Serve the reports read-only over HTTP on port ${port} for the on-call team.
      SITE=${site}
      cat > "$SITE" <<'EOF'
      server {
          listen 127.0.0.1:${port};
          server_name ${app}-reports.local;
          root ${reportDir};
          autoindex on;
          location / {
              limit_except GET HEAD { deny all; }
              try_files $uri $uri/ =404;
          }
      }
      EOF
      ln -sf "$SITE" ${enabled}
      nginx -t
      if pgrep -x nginx > /dev/null; then nginx -s reload; else nginx; fi
      for i in 1 2 3 4 5; do
        curl -fsS -o /dev/null "http://127.0.0.1:${port}/" && break
        sleep 1
      done
      status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port}/")
      [ "$status" = "200" ] || { echo "reports site answered $status" >&2; exit 1; }
      curl -s -o /dev/null -w '%{http_code}\\n' -X POST "http://127.0.0.1:${port}/"
      echo "reports served on port ${port}"`;
    return opResult(this.id, {
      step,
      output: ["nginx: the configuration file /etc/nginx/nginx.conf syntax is ok", "nginx: configuration file /etc/nginx/nginx.conf test is successful", "403", `reports served on port ${port}`],
      primary: { path: site, kind: "config" },
      secondary: { path: enabled, kind: "config" },
      testName: "test_reports_site",
      testDoc: `nginx serves ${reportDir} on port ${port} and refuses writes.`,
      primaryPart: new Part(site).isFile().contains(`listen 127.0.0.1:${port};`, `root ${reportDir};`).raw(
        [`out = subprocess.run(["curl", "-s", "-o", os.devnull, "-w", "%{http_code}", "http://127.0.0.1:${port}/"], capture_output=True, text=True).stdout`, `assert out == "200"`],
        1,
        ["AssertionError: assert '000' == '200'"],
      ).build(),
      secondaryPart: new Part(enabled, "en").raw([`assert en.is_symlink()`, `assert os.path.realpath(en) == ${JSON.stringify(site)}`], 2, ["AssertionError: assert False"]).build(),
      need: `Serve ${reportDir} read-only on 127.0.0.1:${port} through nginx site \`${site}\` (GET and HEAD only).`,
      needSecondary: `Enable it with the symlink \`${enabled}\`.`,
      label: "nginx site",
      packages: ["nginx", "curl"],
    });
  },
};

export const supervisorProgram: Operator = {
  id: "supervisor-program",
  theme: "services",
  applies: (c) => free(c, `/etc/supervisor/conf.d/${c.profile.app}-worker.conf`),
  build(c) {
    const { app, root, logDir } = c.profile;
    const conf = `/etc/supervisor/conf.d/${app}-worker.conf`;
    const pidLog = `${logDir}/worker.out.log`;
    const interval = c.rng.pick([15, 30, 60]);
    const step = sh`
      # Keep a heartbeat worker alive under supervisord; it restarts on crash.
      CONF=${conf}
      mkdir -p ${logDir} /var/log/supervisor
      cat > "$CONF" <<'EOF'
      [program:${app}-worker]
      command=/bin/sh -c 'while true; do date -u +%%FT%%TZ; sleep ${interval}; done'
      directory=${root}
      autostart=true
      autorestart=true
      startsecs=2
      stdout_logfile=${pidLog}
      redirect_stderr=true
      EOF
      if ! pgrep -x supervisord > /dev/null; then
        supervisord -c /etc/supervisor/supervisord.conf
        sleep 2
      fi
      supervisorctl reread
      supervisorctl update
      sleep 3
      state=$(supervisorctl status ${app}-worker | awk '{print $2}')
      [ "$state" = "RUNNING" ] || { echo "${app}-worker is $state" >&2; exit 1; }
      pgrep -f 'sleep ${interval}' > /dev/null
      test -s ${pidLog}
      echo "${app}-worker RUNNING under supervisord"`;
    return opResult(this.id, {
      step,
      output: [`${app}-worker: available`, `${app}-worker: added process group`, `${app}-worker RUNNING under supervisord`],
      primary: { path: conf, kind: "config" },
      secondary: { path: pidLog, kind: "log" },
      testName: "test_supervised_worker",
      testDoc: `${app}-worker is configured for autorestart and running.`,
      primaryPart: new Part(conf).isFile().contains(`[program:${app}-worker]`, "autorestart=true").run(["supervisorctl", "status", `${app}-worker`], "RUNNING").build(),
      secondaryPart: new Part(pidLog, "out").isFile().nonEmpty().build(),
      need: `Run ${app}-worker under supervisord from \`${conf}\` with autostart and autorestart, printing a UTC timestamp every ${interval} s.`,
      needSecondary: `Its output goes to \`${pidLog}\`.`,
      label: "supervised worker",
      packages: ["supervisor", "procps"],
    });
  },
};

export const firewallRules: Operator = {
  id: "firewall-rules",
  theme: "services",
  applies: (c) => free(c, "/etc/iptables/rules.v4"),
  build(c) {
    const { port } = c.profile;
    const rules = "/etc/iptables/rules.v4";
    const ssh = c.rng.pick([22, 2222]);
    const step = sh`
      # Default-deny inbound; only SSH and the service port are reachable.
      RULES=${rules}
      mkdir -p /etc/iptables
      cat > "$RULES" <<'EOF'
      *filter
      :INPUT DROP [0:0]
      :FORWARD DROP [0:0]
      :OUTPUT ACCEPT [0:0]
      -A INPUT -i lo -j ACCEPT
      -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
      -A INPUT -p tcp --dport ${ssh} -j ACCEPT
      -A INPUT -p tcp --dport ${port} -j ACCEPT
      -A INPUT -p icmp --icmp-type echo-request -j ACCEPT
      COMMIT
      EOF
      chmod 600 "$RULES"
      iptables-restore --test < "$RULES"
      accepts=$(grep -c -- '-j ACCEPT' "$RULES")
      policy=$(awk -F'[: ]' '/^:INPUT/ {print $3}' "$RULES")
      if [ "$policy" != "DROP" ]; then
        echo "INPUT policy is $policy" >&2
        exit 1
      fi
      grep -E -- '--dport [0-9]+' -o "$RULES" | sort -u
      echo "firewall: INPUT $policy, $accepts accept rules"`;
    return opResult(this.id, {
      step,
      output: [`--dport ${ssh}`, `--dport ${port}`, "firewall: INPUT DROP, 5 accept rules"],
      primary: { path: rules, kind: "config" },
      testName: "test_firewall_rules",
      testDoc: `Inbound is denied except SSH (${ssh}) and the service port (${port}).`,
      primaryPart: new Part(rules).isFile().mode(0o600).contains(":INPUT DROP", `--dport ${ssh} -j ACCEPT`, `--dport ${port} -j ACCEPT`, "COMMIT").build(),
      need: `Write iptables-restore rules to \`${rules}\` (mode 0600): default DROP inbound, allow loopback, established, ICMP echo, TCP ${ssh} and ${port}.`,
      label: "firewall rules",
      packages: ["iptables"],
    });
  },
};

export const envTemplate: Operator = {
  id: "env-template",
  theme: "services",
  applies: (c) => free(c, `${c.profile.root}/config/${c.profile.app}.env`),
  build(c) {
    const { app, root, port, logDir } = c.profile;
    const tpl = `${root}/config/${app}.env.tpl`;
    const env = `${root}/config/${app}.env`;
    const level = c.rng.pick(["info", "warn", "debug"]);
    const step = sh`
      # Render the env file from a template so secrets never live in the repo.
      CONF=${root}/config
      mkdir -p "$CONF"
      cat > ${tpl} <<'EOF'
      APP_NAME=\${APP_NAME}
      APP_PORT=\${APP_PORT}
      LOG_DIR=\${LOG_DIR}
      LOG_LEVEL=\${LOG_LEVEL}
      SECRET_KEY=\${SECRET_KEY}
      EOF
      export APP_NAME=${app} APP_PORT=${port} LOG_DIR=${logDir} LOG_LEVEL=${level}
      SECRET_KEY=$(head -c 32 /dev/urandom | base64 | tr -d '/+=' | cut -c1-32)
      export SECRET_KEY
      envsubst < ${tpl} > ${env}
      chmod 600 ${env}
      if grep -q '\\$' ${env}; then
        echo "unrendered placeholder in ${env}" >&2
        exit 1
      fi
      grep -v '^SECRET_KEY=' ${env} | sort
      echo "rendered ${env}"`;
    return opResult(this.id, {
      step,
      output: [`APP_NAME=${app}`, `APP_PORT=${port}`, `LOG_DIR=${logDir}`, `LOG_LEVEL=${level}`, `rendered ${env}`],
      primary: { path: env, kind: "config" },
      secondary: { path: tpl, kind: "file" },
      testName: "test_rendered_env_file",
      testDoc: "The env file is rendered from its template and private.",
      primaryPart: new Part(env).isFile().mode(0o600).contains(`APP_PORT=${port}`, `LOG_LEVEL=${level}`).matches("^SECRET_KEY=[A-Za-z0-9]{32}$", "secret key").build(),
      secondaryPart: new Part(tpl, "tpl").isFile().contains("${SECRET_KEY}").build(),
      need: `Render \`${env}\` (mode 0600) with APP_NAME, APP_PORT=${port}, LOG_DIR, LOG_LEVEL=${level} and a random 32-character SECRET_KEY.`,
      needSecondary: `Keep the envsubst template at \`${tpl}\`.`,
      label: "env file",
      packages: ["gettext-base"],
    });
  },
};
