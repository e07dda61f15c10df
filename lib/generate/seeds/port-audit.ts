// Networking seed: map a service registry (INI) to ports and report port conflicts and exposed
// services; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, joinLines } from "./compose";
import { servicesIni } from "./data";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

/** The registry's services as the seed's fixture defines them. */
function parseServices(text: string): { name: string; port: number; bind: string; enabled: string }[] {
  const out: { name: string; port: number; bind: string; enabled: string }[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const name = /^\[(.+)\]$/m.exec(block)?.[1];
    if (!name) continue;
    const get = (k: string) => new RegExp(`^${k} = (.*)$`, "m").exec(block)?.[1] ?? "";
    out.push({ name, port: Number(get("port")), bind: get("bind"), enabled: get("enabled") });
  }
  return out;
}

export const portAudit: SeedTemplate = {
  id: "port-audit",
  category: "networking",
  image: "python:3.12-slim",
  difficulty: "easy",
  profile: (p) => ({ dataDir: `${p.root}/etc` }),
  build(rng, p) {
    const ini = `${p.root}/etc/services.ini`;
    const { text, names } = servicesIni(rng, rng.int(4, 7));
    const map = `${p.reportDir}/port_map.csv`;
    const conflicts = `${p.reportDir}/port_conflicts.txt`;
    const summary = `${p.reportDir}/port_summary.txt`;

    // What the report will say, for the printed output and the exact-count checks.
    const services = parseServices(text).sort((a, b) => a.port - b.port || (a.name < b.name ? -1 : 1));
    const owners = new Map<number, string[]>();
    for (const s of services) if (s.enabled === "true") owners.set(s.port, [...(owners.get(s.port) ?? []), s.name]);
    const clashes = [...owners.entries()].filter(([, o]) => o.length > 1).sort(([a], [b]) => a - b);
    const exposedCount = services.filter((s) => s.bind === "0.0.0.0" && s.enabled === "true").length;

    const n = rng.pick([
      { ini: "INI", map: "MAP", clash: "CONFLICTS", sum: "SUMMARY", count: "services" },
      { ini: "REGISTRY", map: "PORT_MAP", clash: "CLASHES", sum: "SUMMARY_FILE", count: "total" },
      { ini: "SRC", map: "CSV_OUT", clash: "DUPES", sum: "STATS", count: "n_services" },
      { ini: "CONF", map: "OUT", clash: "COLLISIONS", sum: "TOTALS", count: "sections" },
    ]);
    const I = `"$${n.ini}"`;
    const M = `"$${n.map}"`;
    const named = rng.chance(0.6);
    const X = named ? `"$${n.clash}"` : conflicts;
    const S = named ? `"$${n.sum}"` : summary;
    const cnt = n.count;
    const header = rng.pick([
      "# Audit the service registry: which enabled services listen where, and which collide.",
      `# Port inventory for ${p.app}: flatten services.ini to CSV, then look for enabled services sharing a port.`,
      "# Registry audit. One CSV row per [section], a list of port clashes, and a few totals.",
    ]);
    const vars = rng.shuffle([`${n.ini}=${ini}`, `${n.map}=${map}`, ...(named ? [`${n.clash}=${conflicts}`, `${n.sum}=${summary}`] : [])]);
    const mkdir = rng.pick([`mkdir -p ${p.reportDir}`, `install -d ${p.reportDir}`, `mkdir -p "$(dirname ${M})"`]);
    const guard = choose(rng, [
      () => sh`
        if [ ! -r ${I} ]; then
          echo "cannot read $${n.ini}" >&2
          exit 1
        fi`,
      () => `test -s ${I} || { echo "registry $${n.ini} is missing or empty" >&2; exit 1; }`,
      () => sh`
        [ -f ${I} ] || { echo "no registry at $${n.ini}" >&2; exit 2; }`,
    ]);

    const parse = choose(rng, [
      () => sh`
        echo "service,port,bind,enabled" > ${M}
        awk -F' = ' '
          /^\\[/ { if (name != "") print name "," port "," bind "," enabled; name = substr($0, 2, length($0) - 2); next }
          $1 == "port" { port = $2 }
          $1 == "bind" { bind = $2 }
          $1 == "enabled" { enabled = $2 }
          END { if (name != "") print name "," port "," bind "," enabled }
        ' ${I} | sort -t, -k2,2n -k1,1 >> ${M}`,
      () => sh`
        # Sections are separated by blank lines: read the file one paragraph per record.
        {
          printf '%s\\n' "service,port,bind,enabled"
          gawk 'BEGIN { RS = ""; FS = "\\n" }
            {
              svc = $1
              gsub(/^\\[|\\]$/, "", svc)
              delete kv
              for (i = 2; i <= NF; i++) {
                split($i, f, / *= */)
                kv[f[1]] = f[2]
              }
              printf "%s,%s,%s,%s\\n", svc, kv["port"], kv["bind"], kv["enabled"]
            }' ${I} | sort -t, -k2,2n -k1,1
        } > ${M}`,
      () => sh`
        python3 - <<'PY' > ${M}
        import configparser
        import csv
        import sys

        registry = configparser.ConfigParser()
        registry.read("${ini}")
        rows = []
        for name in registry.sections():
            section = registry[name]
            rows.append((name, section.getint("port"), section.get("bind"), section.get("enabled")))
        rows.sort(key=lambda r: (r[1], r[0]))
        writer = csv.writer(sys.stdout, lineterminator="\\n")
        writer.writerow(["service", "port", "bind", "enabled"])
        writer.writerows(rows)
        PY`,
      () => sh`
        echo "service,port,bind,enabled" > ${M}
        {
          while IFS= read -r line; do
            case "$line" in
              "["*"]")
                [ -z "\${svc:-}" ] || echo "$svc,$port,$bind,$enabled"
                svc=\${line#"["}
                svc=\${svc%"]"}
                ;;
              "port = "*) port=\${line#*= } ;;
              "bind = "*) bind=\${line#*= } ;;
              "enabled = "*) enabled=\${line#*= } ;;
            esac
          done < ${I}
          [ -z "\${svc:-}" ] || echo "$svc,$port,$bind,$enabled"
        } | sort -t, -k2,2n -k1,1 >> ${M}`,
    ]);

    const rowCheck = choose(rng, [
      () => sh`
        ${cnt}=$(grep -c '^\\[' ${I})
        rows=$(($(wc -l < ${M}) - 1))
        if [ "$rows" -ne "$${cnt}" ]; then
          echo "parsed $rows of $${cnt} services" >&2
          exit 1
        fi`,
      () => sh`
        ${cnt}=$(awk '/^\\[.*\\]$/ { n++ } END { print n + 0 }' ${I})
        mapped=$(awk 'END { print NR - 1 }' ${M})
        if [ "$mapped" != "$${cnt}" ]; then
          echo "port map has $mapped rows but the registry has $${cnt} sections" >&2
          exit 1
        fi`,
      () => sh`
        ${cnt}=$(grep -c '^\\[.*\\]$' ${I})
        [ "$(tail -n +2 ${M} | wc -l)" -eq "$${cnt}" ] || { echo "row count mismatch in $${n.map}" >&2; exit 1; }`,
    ]);

    const clash = choose(rng, [
      () => sh`
        # Enabled services sharing a port conflict; list owners sorted by name.
        awk -F, '
          NR > 1 && $4 == "true" { owners[$2] = owners[$2] ? owners[$2] " " $1 : $1; n[$2]++ }
          END {
            for (port in n) {
              if (n[port] < 2) continue
              k = split(owners[port], names, " ")
              line = port
              for (i = 1; i <= k; i++) line = line " " names[i]
              print line
            }
          }
        ' ${M} | sort -n > ${X}`,
      () => sh`
        # Pair each enabled service with its port, then fold runs of the same port.
        awk -F, 'NR > 1 && $4 == "true" { print $2, $1 }' ${M} \\
          | sort -k1,1n -k2,2 \\
          | awk '
              $1 == prev { line = line " " $2; k++; next }
              { if (k > 1) print line; prev = $1; line = $1 " " $2; k = 1 }
              END { if (k > 1) print line }
            ' > ${X}`,
      () => sh`
        : > ${X}
        for port in $(awk -F, 'NR > 1 && $4 == "true" { print $2 }' ${M} | sort -n | uniq -d); do
          holders=$(awk -F, -v p="$port" 'NR > 1 && $2 == p && $4 == "true" { print $1 }' ${M} | sort | paste -sd' ' -)
          echo "$port $holders" >> ${X}
        done`,
      () => sh`
        python3 - <<'PY' > ${X}
        import csv
        from collections import defaultdict

        by_port = defaultdict(list)
        with open("${map}", newline="") as fh:
            for row in csv.DictReader(fh):
                if row["enabled"] == "true":
                    by_port[int(row["port"])].append(row["service"])
        for port in sorted(by_port):
            if len(by_port[port]) > 1:
                print(port, *sorted(by_port[port]))
        PY`,
    ]);

    const exposedLine = rng.pick([
      `exposed=$(awk -F, '$3 == "0.0.0.0" && $4 == "true"' ${M} | wc -l)`,
      `exposed=$(grep -c ',0\\.0\\.0\\.0,true$' ${M} || true)`,
      `exposed=$(awk -F, '$3 == "0.0.0.0" && $4 == "true" { k++ } END { print k + 0 }' ${M})`,
    ]);
    const clashVar = rng.pick(["conflicts", "clashes", "dup_ports"]);
    const clashLine = rng.pick([`${clashVar}=$(wc -l < ${X})`, `${clashVar}=$(grep -c . ${X} || true)`, `${clashVar}=$(awk 'END { print NR }' ${X})`]);
    const keys = rng.shuffle([`services=$${cnt}`, `conflicts=$${clashVar}`, `exposed=$exposed`]);
    const writeSummary = choose(rng, [
      () => [`cat > ${S} <<EOF`, ...keys, "EOF"].join("\n"),
      () => `printf '%s\\n' ${keys.map((k) => `"${k}"`).join(" ")} > ${S}`,
      () => ["{", ...keys.map((k) => `  echo "${k}"`), `} > ${S}`].join("\n"),
    ]);
    const sanity = rng.pick([
      `python3 -c "import csv,sys; list(csv.DictReader(open(sys.argv[1])))" ${M}`,
      `awk -F, 'NF != 4 { bad = 1 } END { exit bad }' ${M}`,
      `head -n 1 ${M} | grep -qx 'service,port,bind,enabled'`,
      null,
    ]);

    // What is shown at the end, and what that prints.
    const colW = (xs: string[]) => Math.max(...xs.map((x) => x.length));
    const nameW = colW(["service", ...services.map((s) => s.name)]);
    const portW = colW(["port", ...services.map((s) => String(s.port))]);
    const bindW = colW(["bind", ...services.map((s) => s.bind)]);
    const show = choose(rng, [
      () => ({
        text: sh`
          sed -n '2,4p' ${M} | tr ',' ' '
          cut -d, -f1,2 ${M} | column -t -s,
          cat ${X}`,
        out: [`${"service".padEnd(nameW)}  port`],
      }),
      () => ({
        text: `column -t -s, ${M}`,
        out: [`${"service".padEnd(nameW)}  ${"port".padEnd(portW)}  ${"bind".padEnd(bindW)}  enabled`],
      }),
      () => ({
        text: sh`
          if [ -s ${X} ]; then
            sed 's/^/conflict: /' ${X}
          else
            echo "no port conflicts"
          fi`,
        out: clashes.length > 0 ? clashes.slice(0, 1).map(([port, o]) => `conflict: ${port} ${o.join(" ")}`) : ["no port conflicts"],
      }),
    ]);
    const fin = rng.pick([
      { cmd: `echo "audited $${cnt} services"`, out: `audited ${services.length} services` },
      { cmd: `echo "$${cnt} services, $${clashVar} conflicting ports, $exposed exposed"`, out: `${services.length} services, ${clashes.length} conflicting ports, ${exposedCount} exposed` },
      { cmd: `echo "port map written to $${n.map} ($${cnt} rows)"`, out: `port map written to ${map} (${services.length} rows)` },
    ]);

    const counts = rng.chance(0.5) ? [exposedLine, clashLine] : [clashLine, exposedLine];
    const mkFirst = rng.chance(0.5);
    const script = joinLines(header, ...vars, mkFirst ? mkdir : null, guard, mkFirst ? null : mkdir, parse, rowCheck, clash, ...counts, sanity, writeSummary, show.text, fin.cmd);

    const intro = choose(rng, [
      () => [
        `\`${ini}\` registers services with port, bind and enabled keys. Write \`${map}\` (\`service,port,bind,enabled\`, sorted by port then name).`,
        "",
        `List every port claimed by two or more enabled services as "<port> <service> <service>..." in \`${conflicts}\` (empty if none), and counts of services, conflicts and exposed (0.0.0.0, enabled) services in \`${summary}\`.`,
        "",
        "Treat every section of the registry as one service and do not edit the file.",
      ],
      () => [
        `Each section of \`${ini}\` is one service with port, bind and enabled keys. Flatten it into \`${map}\` with the header \`service,port,bind,enabled\`, rows sorted by port and then by name.`,
        "",
        `Write each port that two or more enabled services claim to \`${conflicts}\` as "<port> <service> <service>..." (an empty file if there are none). Put the number of services, of conflicts and of exposed services (bound to 0.0.0.0 and enabled) in \`${summary}\`.`,
        "",
        "Do not modify the registry.",
      ],
      () => [
        `Audit the service registry \`${ini}\` (one service per section, keys port, bind and enabled) without editing it.`,
        "",
        `Produce \`${map}\` with columns \`service,port,bind,enabled\`, ordered by port then name; \`${conflicts}\`, one "<port> <service> <service>..." line per port claimed by more than one enabled service (empty when none); and \`${summary}\` with services, conflicts and exposed counts, where exposed means enabled and bound to 0.0.0.0.`,
      ],
    ]).join("\n");

    const exact = rng.chance(0.5);
    return {
      title: rng.pick([`Audit ${p.app} service ports`, `Find port conflicts in the ${p.app} service registry`, `Map ${p.app} services to ports`]),
      intro,
      packages: ["gawk", "bsdextrautils"],
      fixtures: [{ src: "services.ini", dest: ini, content: text }],
      script,
      output: [...show.out, fin.out],
      tests: [
        // The registry has blank lines between sections: count them too, as splitlines() does.
        fixtureIntact(ini, text.split("\n").length - 1),
        test("test_port_map", "Every service appears once in the port map.", 0, [
          new Part(map).isFile().csvHeader(["service", "port", "bind", "enabled"]).raw(
            [`assert sorted(r[0] for r in rows[1:]) == ${JSON.stringify([...names].sort())}`],
            1,
            ["AssertionError: assert [] == [...]"],
          ).build(),
        ]),
        test("test_conflicts", "Conflicts name their port first.", 0, [new Part(conflicts).isFile().raw([`assert all(l.split()[0].isdigit() for l in p.read_text().splitlines())`], 1, ["AssertionError"]).build()]),
        exact
          ? test("test_port_summary", "The summary counts services, conflicts and exposed services.", 0, [
              new Part(summary).isFile().contains(`services=${names.length}`, `conflicts=${clashes.length}`, `exposed=${exposedCount}`).build(),
            ])
          : test("test_port_summary", "The summary counts services.", 0, [new Part(summary).isFile().contains(`services=${names.length}`, "conflicts=", "exposed=").build()]),
      ],
      artifacts: [
        { path: map, kind: "csv", columns: ["service", "port", "bind", "enabled"] },
        { path: conflicts, kind: "file" },
        { path: summary, kind: "config" },
      ],
      inputs: [{ path: ini, kind: "config" }],
      tags: ["ports", "ini", "audit"],
    };
  },
};
