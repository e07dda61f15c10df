// System administration operators: cron, users and groups, logrotate, systemd units, sudoers.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { free, latest, opResult, sh } from "./common";

export const addCronJob: Operator = {
  id: "add-cron-job",
  theme: "system",
  applies: (c) => free(c, `/etc/cron.d/${c.profile.app}-maintenance`),
  build(c) {
    const { app, logDir } = c.profile;
    const cron = `/etc/cron.d/${app}-maintenance`;
    const script = `/usr/local/bin/${app}-maintenance`;
    const minute = c.rng.int(0, 59);
    const hour = c.rng.int(0, 5);
    const step = sh`
      # Nightly housekeeping via cron: purge week-old logs, record a heartbeat.
      SCRIPT=${script}
      install -d -m 755 ${logDir}
      cat > "$SCRIPT" <<'EOS'
      #!/bin/sh
      set -eu
      find ${logDir} -type f -name '*.log' -mtime +7 -delete
      date -u +%FT%TZ > ${logDir}/maintenance.heartbeat
      EOS
      chmod 755 "$SCRIPT"
      sh -n "$SCRIPT"
      printf '%s\\n' \\
        'SHELL=/bin/sh' \\
        'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \\
        '${minute} ${hour} * * * root ${script} >> ${logDir}/maintenance.log 2>&1' > ${cron}
      chmod 644 ${cron}
      chown root:root ${cron}
      echo "${minute} ${hour} * * * ${script}" | crontab -u root -
      crontab -l -u root | grep -F "${script}"
      "$SCRIPT"
      test -s ${logDir}/maintenance.heartbeat
      echo "scheduled ${script} at ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}"`;
    return opResult(this.id, {
      step,
      output: [`${minute} ${hour} * * * ${script}`, `scheduled ${script} at ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`],
      primary: { path: cron, kind: "config" },
      secondary: { path: script, kind: "script" },
      testName: "test_maintenance_cron",
      testDoc: "The maintenance job is scheduled nightly as root.",
      primaryPart: new Part(cron).isFile().mode(0o644).contains(`${minute} ${hour} * * * root ${script} >> ${logDir}/maintenance.log 2>&1`).run(["crontab", "-l", "-u", "root"], script).build(),
      secondaryPart: new Part(script, "job").isFile().raw(
        [`assert os.access(job, os.X_OK)`, `assert ${JSON.stringify(`${logDir}/maintenance.heartbeat`)} in job.read_text()`, `assert Path(${JSON.stringify(`${logDir}/maintenance.heartbeat`)}).exists()`],
        3,
        ["AssertionError: assert False"],
      ).build(),
      need: `Schedule \`${cron}\` to run ${script} as root daily at ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}, also in root's crontab, appending to ${logDir}/maintenance.log.`,
      needSecondary: `\`${script}\` purges logs older than 7 days and writes ${logDir}/maintenance.heartbeat.`,
      label: "nightly cron",
      packages: ["cron"],
    });
  },
};

export const serviceAccount: Operator = {
  id: "service-account",
  theme: "system",
  applies: (c) => free(c, `/home/${c.profile.user}-svc`),
  build(c) {
    const { user, root } = c.profile;
    const svc = `${user}-svc`;
    const group = `${user}-ops`;
    const home = `/home/${svc}`;
    const report = `${root}/accounts.txt`;
    const step = sh`
      # Dedicated locked service account; operators get access through a group, not sudo.
      getent group ${group} > /dev/null || groupadd --system ${group}
      if ! id -u ${svc} > /dev/null 2>&1; then
        useradd --system --create-home --home-dir ${home} --shell /usr/sbin/nologin --gid ${group} ${svc}
      fi
      usermod -aG ${group} ${svc}
      passwd -l ${svc}
      chage -E -1 -M 99999 ${svc}
      chown -R ${svc}:${group} ${home}
      chmod 750 ${home}
      chgrp -R ${group} ${root}
      chmod -R g+rX ${root}
      shell=$(getent passwd ${svc} | cut -d: -f7)
      [ "$shell" = "/usr/sbin/nologin" ] || { echo "${svc} can log in" >&2; exit 1; }
      id ${svc} > ${report}
      getent group ${group} >> ${report}`;
    return opResult(this.id, {
      step,
      output: [`passwd: password changed.`, `${svc} L`],
      primary: { path: home, kind: "dir" },
      secondary: { path: report, kind: "file" },
      testName: "test_service_account",
      testDoc: `${svc} is a locked system account in ${group}.`,
      primaryPart: new Part(home).isDir().raw(
        [
          `entry = pwd.getpwnam(${JSON.stringify(svc)})`,
          `assert entry.pw_dir == ${JSON.stringify(home)}`,
          `assert entry.pw_shell == "/usr/sbin/nologin"`,
          `assert grp.getgrgid(entry.pw_gid).gr_name == ${JSON.stringify(group)}`,
          `assert subprocess.run(["passwd", "-S", ${JSON.stringify(svc)}], capture_output=True, text=True).stdout.split()[1] == "L"`,
        ],
        4,
        [`KeyError: "getpwnam(): name not found: '${svc}'"`],
      ).build(),
      secondaryPart: new Part(report, "acct").isFile().contains(svc, group).build(),
      need: `Create locked system user ${svc} (home \`${home}\`, shell /usr/sbin/nologin, primary group ${group}) and give ${group} read access to ${root}.`,
      needSecondary: `Save \`id\` and the group entry to \`${report}\`.`,
      label: "service account",
      packages: ["passwd"],
    });
  },
};

export const logrotateConfig: Operator = {
  id: "logrotate-config",
  theme: "system",
  applies: (c) => free(c, `/etc/logrotate.d/${c.profile.app}`),
  build(c) {
    const { app, logDir } = c.profile;
    const conf = `/etc/logrotate.d/${app}`;
    const state = `/var/lib/logrotate/${app}.status`;
    const keep = c.rng.pick([7, 14, 30]);
    const step = sh`
      # Rotate the service logs daily, keep ${keep} compressed generations.
      CONF=${conf}
      mkdir -p ${logDir} /var/lib/logrotate
      cat > "$CONF" <<'EOF'
      ${logDir}/*.log {
          daily
          rotate ${keep}
          compress
          delaycompress
          missingok
          notifempty
          create 0640 root adm
          su root adm
      }
      EOF
      chmod 644 "$CONF"
      logrotate --debug "$CONF" 2>&1 | grep -q "rotating pattern"
      logrotate --state ${state} "$CONF"
      test -f ${state}
      grep -c '${logDir}' ${state} || true
      ls -l ${logDir} | head -n 5
      echo "logrotate policy installed at $CONF"`;
    return opResult(this.id, {
      step,
      output: [`logrotate policy installed at ${conf}`],
      primary: { path: conf, kind: "config" },
      secondary: { path: state, kind: "file" },
      testName: "test_logrotate_policy",
      testDoc: `Logs in ${logDir} rotate daily with ${keep} compressed copies.`,
      primaryPart: new Part(conf).isFile().contains(`${logDir}/*.log`, `rotate ${keep}`, "compress").run(["logrotate", "--debug", conf]).build(),
      secondaryPart: new Part(state, "st").isFile().contains("logrotate state").build(),
      need: `Rotate ${logDir}/*.log daily via \`${conf}\`, keeping ${keep} compressed generations.`,
      needSecondary: `Run it once with state file \`${state}\`.`,
      label: "log rotation",
      packages: ["logrotate"],
    });
  },
};

export const systemdUnit: Operator = {
  id: "systemd-unit",
  theme: "system",
  applies: (c) => free(c, `/etc/systemd/system/${c.profile.app}-report.service`),
  build(c) {
    const { app, root, user } = c.profile;
    const unit = `/etc/systemd/system/${app}-report.service`;
    const timer = `/etc/systemd/system/${app}-report.timer`;
    const entry = latest(c, ["script"])?.path ?? "/bin/true";
    const step = sh`
      # Unit and timer so the report runs under systemd on real hosts.
      UNIT=${unit}
      cat > "$UNIT" <<EOF
      [Unit]
      Description=${app} report generation
      After=network-online.target

      [Service]
      Type=oneshot
      User=root
      WorkingDirectory=${root}
      ExecStart=${entry}
      EOF
      printf '[Unit]\\nDescription=Run ${app}-report hourly\\n\\n[Timer]\\nOnCalendar=hourly\\nPersistent=true\\n\\n[Install]\\nWantedBy=timers.target\\n' > ${timer}
      chmod 644 "$UNIT" ${timer}
      systemd-analyze verify "$UNIT" ${timer} 2>&1 | grep -v 'Failed to' || true
      mkdir -p /etc/systemd/system/timers.target.wants
      ln -sf ${timer} /etc/systemd/system/timers.target.wants/${app}-report.timer
      grep -q '^ExecStart=' "$UNIT"
      id ${user} > /dev/null 2>&1 || echo "note: ${user} not present, running as root"
      echo "installed ${app}-report.service and timer"`;
    return opResult(this.id, {
      step,
      output: [`installed ${app}-report.service and timer`],
      primary: { path: unit, kind: "config" },
      secondary: { path: timer, kind: "config" },
      testName: "test_systemd_units",
      testDoc: "The oneshot service and its hourly timer are installed and enabled.",
      primaryPart: new Part(unit).isFile().contains("Type=oneshot", `WorkingDirectory=${root}`, "ExecStart=").build(),
      secondaryPart: new Part(timer, "tm").isFile().contains("OnCalendar=hourly").raw(
        [`assert os.path.islink(${JSON.stringify(`/etc/systemd/system/timers.target.wants/${app}-report.timer`)})`],
        1,
        ["AssertionError: assert False"],
      ).build(),
      need: `Install a oneshot \`${unit}\` (working directory ${root}).`,
      needSecondary: `Add an hourly \`${timer}\` enabled via /etc/systemd/system/timers.target.wants/${app}-report.timer.`,
      label: "systemd unit",
      packages: ["systemd"],
    });
  },
};

export const sudoersDropIn: Operator = {
  id: "sudoers-drop-in",
  theme: "system",
  applies: (c) => free(c, `/etc/sudoers.d/${c.profile.app}-ops`),
  build(c) {
    const { app, user } = c.profile;
    const file = `/etc/sudoers.d/${app}-ops`;
    const group = `${user}-ops`;
    const step = sh`
      # Operators may restart the service and read its logs, nothing else.
      DROPIN=${file}
      getent group ${group} > /dev/null || groupadd ${group}
      umask 0337
      cat > "$DROPIN" <<'EOF'
      Cmnd_Alias ${app.toUpperCase().replace(/-/g, "_")}_OPS = /usr/bin/systemctl restart ${app}, /usr/bin/journalctl -u ${app}
      %${group} ALL=(root) NOPASSWD: ${app.toUpperCase().replace(/-/g, "_")}_OPS
      EOF
      umask 0022
      chmod 440 "$DROPIN"
      if ! visudo -cf "$DROPIN"; then
        rm -f "$DROPIN"
        echo "sudoers drop-in rejected by visudo" >&2
        exit 1
      fi
      visudo -c > /dev/null
      grep -Eq '^[@#]includedir /etc/sudoers.d' /etc/sudoers
      stat -c '%a %U' "$DROPIN"
      echo "sudo rules for %${group} installed"`;
    return opResult(this.id, {
      step,
      output: [`${file}: parsed OK`, "440 root", `sudo rules for %${group} installed`],
      primary: { path: file, kind: "config" },
      testName: "test_sudoers_drop_in",
      testDoc: `%${group} may only restart ${app} and read its journal.`,
      primaryPart: new Part(file).isFile().mode(0o440).contains(`%${group} ALL=(root) NOPASSWD:`).run(["visudo", "-cf", file]).build(),
      need: `Allow group ${group} to restart ${app} and read its journal without a password via \`${file}\` (mode 0440, visudo-clean).`,
      label: "sudo rules",
      packages: ["sudo"],
    });
  },
};
