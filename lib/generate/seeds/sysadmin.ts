// System-administration seeds: access-log triage, user provisioning, disk usage audit.
import { sh } from "../operators/common";
import { nginxLog, usersCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const nginxLogTriage: SeedTemplate = {
  id: "nginx-log-triage",
  category: "system-administration",
  image: "ubuntu:24.04",
  difficulty: "easy",
  profile: () => ({ dataDir: "/var/log/nginx" }),
  build(rng, p) {
    const log = "/var/log/nginx/access.log";
    const lines = rng.int(40, 90);
    const text = nginxLog(rng, lines);
    const topN = rng.pick([3, 5, 10]);
    const r = p.reportDir;
    const script = sh`
      # Triage the nginx access log into status, client, error and volume reports.
      LOG=${log}
      REPORTS=${r}
      TOP=${topN}
      mkdir -p "$REPORTS"
      if [ ! -s "$LOG" ]; then
        echo "missing or empty $LOG" >&2
        exit 1
      fi

      # One pass over the log: per-status, per-client, per-path and per-minute tallies.
      awk -v out="$REPORTS" '
        {
          status[$9]++
          client[$1]++
          bytes[$7] += $10
          split($4, t, ":")
          minute[t[2] ":" t[3]]++
          if ($9 >= 500) print > (out "/server_errors.log")
        }
        END {
          for (s in status) printf "%s %d\\n", s, status[s] > (out "/status_counts.unsorted")
          for (c in client) printf "%s %d\\n", c, client[c] > (out "/top_clients.unsorted")
          for (p in bytes) printf "%s %d\\n", p, bytes[p] > (out "/bytes_by_path.unsorted")
          for (m in minute) if (minute[m] > best) { best = minute[m]; busiest = m }
          print busiest > (out "/busiest_minute")
        }
      ' "$LOG"
      touch "$REPORTS/server_errors.log"

      # Busiest first; ties broken by key so reruns are byte-identical.
      sort -k2,2nr -k1,1 "$REPORTS/status_counts.unsorted" > "$REPORTS/status_counts.txt"
      sort -k2,2nr -k1,1 "$REPORTS/top_clients.unsorted" | head -n "$TOP" > "$REPORTS/top_clients.txt"
      sort -k2,2nr -k1,1 "$REPORTS/bytes_by_path.unsorted" > "$REPORTS/bytes_by_path.txt"
      rm -f "$REPORTS"/*.unsorted

      total=$(wc -l < "$LOG")
      errors=$(wc -l < "$REPORTS/server_errors.log")
      busiest=$(cat "$REPORTS/busiest_minute")
      generated=$(date -u +%Y-%m-%dT%H:%M:%SZ)
      rm -f "$REPORTS/busiest_minute"
      rate=$(awk -v e="$errors" -v t="$total" 'BEGIN { printf "%.2f", (t ? 100 * e / t : 0) }')
      sum=$(awk '{s += $2} END {print s + 0}' "$REPORTS/status_counts.txt")
      if [ "$sum" -ne "$total" ]; then
        echo "status counts ($sum) do not add up to $total" >&2
        exit 1
      fi
      cat > "$REPORTS/summary.env" <<EOF
      total_requests=$total
      server_errors=$errors
      error_rate_pct=$rate
      busiest_minute=$busiest
      generated_at=$generated
      EOF
      grep -Eq '^[0-9]{3} [0-9]+$' "$REPORTS/status_counts.txt"
      chmod 644 "$REPORTS"/*.txt "$REPORTS/summary.env"
      chmod 640 "$REPORTS/server_errors.log"
      column -t "$REPORTS/top_clients.txt"
      stat -c '%a %s %n' "$REPORTS"/*
      echo "triaged $total requests ($errors server errors, $rate%)"`;
    return {
      title: `Triage the ${p.app} access log`,
      intro: [
        `The nginx access log at \`${log}\` holds a day of traffic for the ${p.app} service. Produce these reports:`,
        "",
        `- \`${r}/status_counts.txt\`: one \`<status> <count>\` line per status code, busiest first`,
        `- \`${r}/top_clients.txt\`: the ${topN} busiest client IPs as \`<ip> <count>\``,
        `- \`${r}/server_errors.log\`: every 5xx request line, verbatim (mode 0640)`,
        `- \`${r}/bytes_by_path.txt\`: bytes served per request path`,
        `- \`${r}/summary.env\`: total_requests, server_errors, error_rate_pct and busiest_minute`,
        "",
        "Use standard command-line tools only; rerunning the solution must produce byte-identical reports.",
      ].join("\n"),
      packages: ["gawk"],
      fixtures: [{ src: "access.log", dest: log, content: text }],
      script,
      output: [`-rw-r--r-- 1 root root  ${rng.int(40, 400)} status_counts.txt`, `triaged ${lines} requests`],
      tests: [
        fixtureIntact(log, lineCount(text)),
        test("test_status_counts", "Status counts are well-formed and add up to the request total.", 0, [
          new Part(`${r}/status_counts.txt`).isFile().matches("^[0-9]{3} [0-9]+$", "status line").raw(
            [`assert sum(int(l.split()[1]) for l in p.read_text().splitlines()) == ${lineCount(text)}`],
            1,
            [`AssertionError: assert 0 == ${lineCount(text)}`],
          ).build(),
        ]),
        test("test_top_clients", `At most ${topN} clients, busiest first.`, 0, [
          new Part(`${r}/top_clients.txt`).isFile().raw(
            [`counts = [int(l.split()[1]) for l in p.read_text().splitlines()]`, `assert 0 < len(counts) <= ${topN}`, `assert counts == sorted(counts, reverse=True)`],
            2,
            ["AssertionError: assert 0 < 0"],
          ).build(),
        ]),
        test("test_server_errors", "Only 5xx lines are copied and the file is private.", 0, [
          new Part(`${r}/server_errors.log`).isFile().mode(0o640).raw(
            [`assert all(int(l.split()[8]) >= 500 for l in p.read_text().splitlines())`],
            1,
            ["AssertionError: assert False"],
          ).build(),
        ]),
        test("test_bytes_by_path", "Bytes are summed per path.", 0, [new Part(`${r}/bytes_by_path.txt`).isFile().matches("^/\\S* [0-9]+$", "path line").build()]),
        test("test_summary_env", "The summary carries the headline numbers.", 0, [
          new Part(`${r}/summary.env`).isFile().contains(`total_requests=${lineCount(text)}`, "server_errors=", "error_rate_pct=", "busiest_minute=").build(),
        ]),
      ],
      artifacts: [
        { path: `${r}/status_counts.txt`, kind: "file" },
        { path: `${r}/top_clients.txt`, kind: "file" },
        { path: `${r}/server_errors.log`, kind: "log", format: "nginx" },
        { path: `${r}/bytes_by_path.txt`, kind: "file" },
        { path: `${r}/summary.env`, kind: "config" },
      ],
      inputs: [{ path: log, kind: "log", format: "nginx" }],
      tags: ["logs", "awk", "nginx"],
    };
  },
};

export const userProvisioning: SeedTemplate = {
  id: "user-provisioning",
  category: "system-administration",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const csvPath = `${p.dataDir}/users.csv`;
    const n = rng.int(5, 9);
    const text = usersCsv(rng, n);
    const r = p.reportDir;
    const script = sh`
      # Provision the accounts listed in users.csv: one group per team, locked passwords.
      USERS=${csvPath}
      REPORT=${r}/provisioned.tsv
      mkdir -p ${r}
      if [ ! -r "$USERS" ]; then
        echo "cannot read $USERS" >&2
        exit 1
      fi
      printf 'username\\tuid\\tteam\\thome\\tshell\\n' > "$REPORT"

      # Groups first, so every user can get its team as primary group.
      for team in $(tail -n +2 "$USERS" | cut -d, -f3 | sort -u); do
        if ! getent group "team-$team" > /dev/null; then
          groupadd "team-$team"
        fi
      done

      tail -n +2 "$USERS" | tr -d '\\r' | while IFS=, read -r username full_name team shell; do
        home="/home/$username"
        if ! id -u "$username" > /dev/null 2>&1; then
          useradd --create-home \\
            --shell "$shell" \\
            --comment "$full_name" \\
            --gid "team-$team" \\
            "$username"
        fi
        passwd -l "$username" > /dev/null
        chmod 750 "$home"
        install -d -m 700 -o "$username" -g "team-$team" "$home/.ssh"
        install -m 600 -o "$username" -g "team-$team" /dev/null "$home/.ssh/authorized_keys"
        uid=$(id -u "$username")
        printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$username" "$uid" "$team" "$home" "$shell" >> "$REPORT"
      done

      expected=$(($(wc -l < "$USERS") - 1))
      created=$(($(wc -l < "$REPORT") - 1))
      if [ "$created" -ne "$expected" ]; then
        echo "provisioned $created of $expected users" >&2
        exit 1
      fi
      getent group | awk -F: '/^team-/ { print $1 ":" $4 }' | sort > ${r}/teams.txt
      awk -F'\\t' 'NR > 1 && $5 == "/usr/sbin/nologin" { print $1 }' "$REPORT" > ${r}/nologin_users.txt
      chmod 644 "$REPORT" ${r}/teams.txt ${r}/nologin_users.txt
      column -t -s $'\\t' "$REPORT"
      echo "provisioned $created users"`;
    const first = text.split("\n")[1]?.split(",")[0] ?? "alice";
    return {
      title: `Provision ${p.app} user accounts`,
      intro: [
        `Create the local accounts listed in \`${csvPath}\` (username, full_name, team, shell). Each team gets a group named \`team-<team>\` used as the primary group; passwords stay locked; every home /home/<username> has a private \`.ssh/authorized_keys\` (mode 0600).`,
        "",
        `Report the result in \`${r}/provisioned.tsv\` (username, uid, team, home, shell), the team groups and members in \`${r}/teams.txt\`, and the nologin accounts in \`${r}/nologin_users.txt\`.`,
        "",
        "The script must be idempotent: running it twice must neither fail nor create duplicates.",
      ].join("\n"),
      packages: ["passwd", "bsdextrautils"],
      fixtures: [{ src: "users.csv", dest: csvPath, content: text }],
      script,
      output: [`username  uid   team      home`, `provisioned ${n} users`],
      tests: [
        fixtureIntact(csvPath, lineCount(text)),
        test("test_accounts_exist", "Every listed user exists with a locked password.", 0, [
          new Part(csvPath, "src").raw(
            [
              `for row in csv.DictReader(src.open()):`,
              `    entry = pwd.getpwnam(row["username"])`,
              `    assert entry.pw_shell == row["shell"]`,
              `    assert grp.getgrgid(entry.pw_gid).gr_name == "team-" + row["team"]`,
            ],
            2,
            [`KeyError: "getpwnam(): name not found: '${first}'"`],
          ).build(),
        ]),
        test("test_ssh_dirs_private", "authorized_keys files are private.", 0, [
          new Part(csvPath, "src").raw(
            [
              `for row in csv.DictReader(src.open()):`,
              `    keys = Path("/home") / row["username"] / ".ssh" / "authorized_keys"`,
              `    assert keys.is_file()`,
              `    assert stat.S_IMODE(keys.stat().st_mode) == 0o600`,
            ],
            2,
            [`AssertionError: assert False`, ` +  where False = is_file()`],
          ).build(),
        ]),
        test("test_provisioned_report", "The report lists every user once.", 0, [new Part(`${r}/provisioned.tsv`).isFile().contains("username\tuid\tteam\thome\tshell").minLines(n + 1).build()]),
        test("test_team_and_nologin_reports", "Team and nologin reports exist.", 0, [
          new Part(`${r}/teams.txt`).isFile().contains("team-").build(),
          new Part(`${r}/nologin_users.txt`, "nl").isFile().build(),
        ]),
      ],
      artifacts: [
        { path: `${r}/provisioned.tsv`, kind: "file" },
        { path: `${r}/teams.txt`, kind: "file" },
        { path: `${r}/nologin_users.txt`, kind: "file" },
      ],
      inputs: [{ path: csvPath, kind: "csv", columns: ["username", "full_name", "team", "shell"] }],
      tags: ["users", "groups", "permissions"],
    };
  },
};
