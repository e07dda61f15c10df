// System-administration seed: create the accounts of a users CSV (team groups, locked passwords,
// private ~/.ssh) and report them; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { indent, joinLines, joinSections, maybe } from "./compose";
import { usersCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

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
    const rows = text
      .split("\n")
      .slice(1)
      .filter((l) => l !== "")
      .map((l) => l.split(","));
    const nologin = rows.filter((f) => f[3] === "/usr/sbin/nologin").map((f) => f[0] ?? "");
    const teams = [...new Set(rows.map((f) => f[2] ?? ""))].sort();

    // Names this author uses.
    const nm = rng.pick([
      { csv: "USERS", dir: "REPORT_DIR", tsv: "REPORT" },
      { csv: "CSV", dir: "OUT", tsv: "TSV" },
      { csv: "roster", dir: "outdir", tsv: "report" },
      { csv: "SRC", dir: "DEST", tsv: "SUMMARY" },
    ]);
    const vCsv = `"$${nm.csv}"`;
    const vDir = `$${nm.dir}`;
    const vTsv = `"$${nm.tsv}"`;
    const teamsTxt = `"${vDir}/teams.txt"`;
    const nologinTxt = `"${vDir}/nologin_users.txt"`;
    const col = rng.pick([
      { u: "username", name: "full_name", team: "team", shell: "shell" },
      { u: "login", name: "gecos", team: "team", shell: "login_shell" },
      { u: "user", name: "comment", team: "tm", shell: "user_shell" },
    ]);
    const U = `"$${col.u}"`;
    const S = `"$${col.shell}"`;
    const grp = `"team-$${col.team}"`;

    // --- Preamble.
    const heading = rng.pick([
      "# Provision the accounts listed in users.csv: one group per team, locked passwords.",
      "# Create the local accounts from the CSV roster. Idempotent: safe to run twice.",
      `# Account provisioning for ${p.app}: team groups, users with locked passwords, private ~/.ssh.`,
      null,
    ]);
    const assigns = joinLines(...rng.shuffle([`${nm.csv}=${csvPath}`, `${nm.dir}=${r}`]), `${nm.tsv}="${vDir}/provisioned.tsv"`);
    const guard = rng.pick([
      sh`
        if [ ! -r ${vCsv} ]; then
          echo "cannot read $${nm.csv}" >&2
          exit 1
        fi`,
      sh`[ -s ${vCsv} ] || { echo "no roster at $${nm.csv}" >&2; exit 1; }`,
      sh`test -f ${vCsv} || { printf 'missing %s\\n' ${vCsv} >&2; exit 1; }`,
    ]);
    const headerCheck = maybe(rng, 0.15, [
      sh`
        IFS= read -r header < ${vCsv}
        if [ "\${header%$'\\r'}" != "username,full_name,team,shell" ]; then
          echo "unexpected header: $header" >&2
          exit 1
        fi`,
      sh`
        # The columns this script relies on (set -e stops here on anything else).
        head -n 1 ${vCsv} | tr -d '\\r' | grep -qx 'username,full_name,team,shell'`,
    ]);
    const makeDir = rng.pick([`mkdir -p "${vDir}"`, `install -d -m 755 "${vDir}"`]);
    const preamble = joinLines(heading, assigns, makeDir, guard, headerCheck);

    // --- Groups: up front in one of three ways, or inside the user loop.
    const groupStyle = rng.int(0, 3);
    const groups = [
      sh`
        # Groups first, so every user can get its team as primary group.
        for team in $(tail -n +2 ${vCsv} | cut -d, -f3 | sort -u); do
          if ! getent group "team-$team" > /dev/null; then
            groupadd "team-$team"
          fi
        done`,
      sh`
        # One group per team; groupadd -f is a no-op when it already exists.
        while read -r group; do
          groupadd -f "$group"
        done < <(awk -F, 'NR > 1 { print "team-" $3 }' ${vCsv} | sort -u)`,
      sh`
        # The team groups, created before anyone needs them as a primary group.
        sed 1d ${vCsv} | cut -d, -f3 | sort -u | xargs -r -I{} groupadd -f "team-{}"`,
      null,
    ][groupStyle];

    // --- The report: rows written by the loop, or read back from the account database afterwards.
    const reportStyle = rng.pick([0, 0, 1, 2]);
    const header = `printf 'username\\tuid\\tteam\\thome\\tshell\\n'`;
    const nologinInLoop = rng.chance(0.25);

    // --- The loop body, from interchangeable pieces.
    const homeVar = rng.pick(["home", "home_dir"]);
    const H = `"$${homeVar}"`;
    const createStyle = rng.int(0, 3);
    const create = [
      sh`
        if ! id -u ${U} > /dev/null 2>&1; then
          useradd --create-home \\
            --shell ${S} \\
            --comment "$${col.name}" \\
            --gid ${grp} \\
            ${U}
        fi`,
      sh`
        if getent passwd ${U} > /dev/null; then
          usermod -s ${S} -g ${grp} -c "$${col.name}" ${U}
        else
          useradd -m -s ${S} -g ${grp} -c "$${col.name}" ${U}
        fi`,
      sh`id ${U} &> /dev/null || useradd -m -g ${grp} -s ${S} -c "$${col.name}" ${U}`,
      sh`
        # useradd leaves the password locked; usermod -L locks an account that already existed.
        if id ${U} > /dev/null 2>&1; then
          usermod -L -g ${grp} -s ${S} ${U}
        else
          useradd --create-home --gid ${grp} --shell ${S} --comment "$${col.name}" ${U}
        fi`,
    ][createStyle] ?? "";
    const inlineGroup = groupStyle === 3 ? rng.pick([`groupadd -f ${grp}`, `getent group ${grp} > /dev/null || groupadd ${grp}`]) : null;
    const lock = createStyle === 3 ? null : rng.pick([`passwd -l ${U} > /dev/null`, `usermod -L ${U}`, `passwd --lock ${U} > /dev/null`]);
    const home = rng.pick([`${homeVar}="/home/$${col.u}"`, `${homeVar}=/home/$${col.u}`, `${homeVar}=$(getent passwd ${U} | cut -d: -f6)`]);
    const homeMode = rng.pick([`chmod 750 ${H}`, `chmod 0750 ${H}`, `chmod u=rwx,g=rx,o= ${H}`, null]);
    const ssh = rng.pick([
      sh`
        install -d -m 700 -o ${U} -g ${grp} "$${homeVar}/.ssh"
        [ -f "$${homeVar}/.ssh/authorized_keys" ] || install -m 600 -o ${U} -g ${grp} /dev/null "$${homeVar}/.ssh/authorized_keys"`,
      sh`
        mkdir -p -m 700 "$${homeVar}/.ssh"
        touch "$${homeVar}/.ssh/authorized_keys"
        chmod 600 "$${homeVar}/.ssh/authorized_keys"
        chown -R "$${col.u}:team-$${col.team}" "$${homeVar}/.ssh"`,
      sh`
        keys="$${homeVar}/.ssh/authorized_keys"
        install -d -m 0700 -o ${U} -g ${grp} "\${keys%/*}"
        if [ ! -e "$keys" ]; then
          install -m 0600 -o ${U} -g ${grp} /dev/null "$keys"
        fi`,
    ]);
    const record =
      reportStyle === 0
        ? rng.pick([
            joinLines(`uid=$(id -u ${U})`, `printf '%s\\t%s\\t%s\\t%s\\t%s\\n' ${U} "$uid" "$${col.team}" ${H} ${S} >> ${vTsv}`),
            `printf '%s\\t%s\\t%s\\t%s\\t%s\\n' ${U} "$(id -u ${U})" "$${col.team}" ${H} ${S} >> ${vTsv}`,
          ])
        : null;
    const nologinLine = nologinInLoop
      ? sh`
          if [ ${S} = /usr/sbin/nologin ]; then
            echo ${U} >> ${nologinTxt}
          fi`
      : null;
    const body = joinLines(inlineGroup, create, ...rng.shuffle([lock, joinLines(home, homeMode, ssh)]), record, nologinLine);
    const fields = `${col.u} ${col.name} ${col.team} ${col.shell}`;
    const frame = rng.int(0, 2);
    const loop = [
      joinLines(`tail -n +2 ${vCsv} | tr -d '\\r' | while IFS=, read -r ${fields}; do`, indent(body, 2), "done"),
      joinLines(`while IFS=, read -r ${fields}; do`, indent(body, 2), `done < <(sed '1d; s/\\r$//' ${vCsv})`),
      joinLines("{", "  read -r _header", `  while IFS=, read -r ${fields}; do`, `    ${col.shell}=\${${col.shell}%$'\\r'}`, indent(body, 4), "  done", `} < ${vCsv}`),
    ][frame];
    const users = joinLines(
      rng.pick([
        createStyle === 0 || createStyle === 2 ? "# One account per row; existing accounts are left in place." : "# Accounts: create or update, keep the password locked, private ~/.ssh.",
        "# Create each account, lock its password and give it a private ~/.ssh.",
        null,
      ]),
      reportStyle === 0 && `${header} > ${vTsv}`,
      nologinInLoop && `: > ${nologinTxt}`,
      loop ?? null,
    );

    const report = [
      null,
      sh`
        # Report what the system now holds, not what the CSV asked for.
        {
          ${header}
          while IFS=, read -r name team; do
            IFS=: read -r _ _ uid _ _ home shell < <(getent passwd "$name")
            printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$name" "$uid" "$team" "$home" "$shell"
          done < <(sed 1d ${vCsv} | cut -d, -f1,3)
        } > ${vTsv}`,
      sh`
        # The report comes from the passwd and group databases.
        {
          ${header}
          for name in $(awk -F, 'NR > 1 { print $1 }' ${vCsv}); do
            IFS=: read -r _ _ uid _ _ home shell < <(getent passwd "$name")
            group=$(id -gn "$name")
            printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$name" "$uid" "\${group#team-}" "$home" "$shell"
          done
        } > ${vTsv}`,
    ][reportStyle];

    // --- Sanity check on the count (some authors skip it).
    const countCheck = rng.pick([
      sh`
        expected=$(($(wc -l < ${vCsv}) - 1))
        created=$(($(wc -l < ${vTsv}) - 1))
        if [ "$created" -ne "$expected" ]; then
          echo "provisioned $created of $expected users" >&2
          exit 1
        fi`,
      sh`
        lines=$(grep -c . ${vCsv})
        created=$(awk 'END { print NR - 1 }' ${vTsv})
        [ "$created" -eq $((lines - 1)) ] || { echo "report has $created rows for $((lines - 1)) users" >&2; exit 1; }`,
      `created=$(tail -n +2 ${vTsv} | wc -l)`,
      `created=$(grep -vc '^username' ${vTsv})`,
    ]);

    // --- Team membership and nologin accounts.
    const teamsReport = rng.pick([
      sh`
        awk -F'\\t' 'NR > 1 { g = "team-" $3; m[g] = (g in m) ? m[g] "," $1 : $1 } END { for (g in m) print g ":" m[g] }' ${vTsv} | sort > ${teamsTxt}`,
      sh`
        for team in $(awk -F'\\t' 'NR > 1 { print $3 }' ${vTsv} | sort -u); do
          printf 'team-%s:%s\\n' "$team" "$(awk -F'\\t' -v t="$team" '$3 == t { print $1 }' ${vTsv} | paste -sd, -)"
        done > ${teamsTxt}`,
      sh`
        # Primary-group members are not listed in /etc/group: join passwd to group on the gid.
        awk -F: '
          NR == FNR { if ($1 ~ /^team-/) name[$3] = $1; next }
          $4 in name { g = name[$4]; members[g] = (g in members) ? members[g] "," $1 : $1 }
          END { for (g in members) print g ":" members[g] }
        ' <(getent group) <(getent passwd) | sort > ${teamsTxt}`,
    ]);
    const nologinReport = nologinInLoop
      ? null
      : rng.pick([
          `awk -F'\\t' 'NR > 1 && $5 == "/usr/sbin/nologin" { print $1 }' ${vTsv} > ${nologinTxt}`,
          `awk -F, 'NR > 1 { sub(/\\r$/, "") } NR > 1 && $4 == "/usr/sbin/nologin" { print $1 }' ${vCsv} > ${nologinTxt}`,
          `getent passwd $(tail -n +2 ${vTsv} | cut -f1) | awk -F: '$7 == "/usr/sbin/nologin" { print $1 }' > ${nologinTxt}`,
        ]);
    const derived = joinLines(
      maybe(rng, 0.5, ["# Team membership and the accounts that cannot log in.", "# Derived reports."]),
      ...rng.shuffle([teamsReport, nologinReport]),
    );

    // --- Modes and the printed result.
    const modes = rng.pick([
      `chmod 644 ${vTsv} ${teamsTxt} ${nologinTxt}`,
      `chmod 0644 ${vTsv} "${vDir}"/*.txt`,
      `chmod a+r,go-w ${vTsv} ${teamsTxt} ${nologinTxt}`,
    ]);
    const show = rng.int(0, 2);
    const display = [
      joinLines(`column -t -s $'\\t' ${vTsv}`, `echo "provisioned $created users"`),
      joinLines(`cat ${teamsTxt}`, `printf 'ok: %d accounts, %d nologin\\n' "$created" "$(wc -l < ${nologinTxt})"`),
      joinLines(`wc -l ${vTsv} ${teamsTxt} ${nologinTxt}`, `echo "done: $created accounts from $${nm.csv} are in place"`),
    ][show];
    const first = rows[0]?.[0] ?? "alice";
    const firstTeam = teams[0] ?? "data";
    const output = [
      [`username  uid   team      home              shell`, `${first}     1001  ${rows[0]?.[2] ?? "data"}  /home/${first}  ${rows[0]?.[3] ?? "/bin/bash"}`, `provisioned ${n} users`],
      [`team-${firstTeam}:${rows.filter((f) => f[2] === firstTeam).map((f) => f[0]).join(",")}`, `ok: ${n} accounts, ${nologin.length} nologin`],
      [`  ${n + 1} ${r}/provisioned.tsv`, `  ${teams.length} ${r}/teams.txt`, `done: ${n} accounts from ${csvPath} are in place`],
    ][show] ?? [];

    const script = joinSections(preamble, groups ?? null, users, report ?? null, countCheck, derived, joinLines(modes, display ?? null));

    // --- Instruction: same facts, one of three phrasings.
    const strictNologin = rng.chance(0.5);
    const nologinWords = strictNologin ? "the nologin accounts, one username per line," : "the nologin accounts";
    const intro = [
      [
        `Create the local accounts listed in \`${csvPath}\` (username, full_name, team, shell). Each team gets a group named \`team-<team>\` used as the primary group; passwords stay locked; every home /home/<username> has a private \`.ssh/authorized_keys\` (mode 0600).`,
        "",
        `Report the result in \`${r}/provisioned.tsv\` (username, uid, team, home, shell), the team groups and members in \`${r}/teams.txt\`, and ${nologinWords} in \`${r}/nologin_users.txt\`.`,
        "",
        "The script must be idempotent: running it twice must neither fail nor create duplicates.",
      ],
      [
        `Set up the ${p.app} user accounts from \`${csvPath}\`, whose columns are username, full_name, team and shell. Every user's primary group is \`team-<team>\`, passwords are locked, and each home /home/<username> holds an \`.ssh/authorized_keys\` only its owner can read (mode 0600).`,
        "",
        `Write \`${r}/provisioned.tsv\` with the columns username, uid, team, home and shell, list each team group with its members in \`${r}/teams.txt\`, and put ${nologinWords} in \`${r}/nologin_users.txt\`.`,
        "",
        "Running the provisioning a second time must succeed and must not duplicate anything.",
      ],
      [
        `The roster \`${csvPath}\` (username, full_name, team, shell) lists the people who need local accounts on this ${p.app} host. Create them so that:`,
        "",
        "- each team has a group `team-<team>`, which is its members' primary group;",
        "- passwords are locked;",
        "- every home /home/<username> contains `.ssh/authorized_keys` with mode 0600.",
        "",
        `Then report the accounts in \`${r}/provisioned.tsv\` (username, uid, team, home, shell), the team groups and members in \`${r}/teams.txt\`, and ${nologinWords} in \`${r}/nologin_users.txt\`. A second run must neither fail nor create duplicates.`,
      ],
    ];
    const nologinPart = new Part(`${r}/nologin_users.txt`, "nl").isFile();
    if (strictNologin) nologinPart.raw([`assert sorted(nl.read_text().split()) == ${JSON.stringify([...nologin].sort())}`], 1, [`AssertionError: assert [] == ${JSON.stringify([...nologin].sort())}`]);
    return {
      title: `Provision ${p.app} user accounts`,
      intro: rng.pick(intro).join("\n"),
      packages: ["passwd", ...(show === 0 ? ["bsdextrautils"] : [])],
      fixtures: [{ src: "users.csv", dest: csvPath, content: text }],
      script,
      output,
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
        test("test_team_and_nologin_reports", "Team and nologin reports exist.", 0, [new Part(`${r}/teams.txt`).isFile().contains("team-").build(), nologinPart.build()]),
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
