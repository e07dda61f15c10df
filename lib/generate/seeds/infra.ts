// Networking, database and file-operation seeds: static site, port audit, SQLite inventory,
// rotating backups.
//
// Each seed of a template is written as if by a different engineer: every section of the script
// has a few equivalent implementations (tools, idioms, names, wording), picked per seed.
import type { Rng } from "../prng";
import { sh } from "../operators/common";
import { productsCsv, servicesIni, stockMovesCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

/** Joins script sections, dropping the ones a seed left out. */
function lines(...parts: (string | false | null | undefined)[]): string {
  return parts.filter((x): x is string => typeof x === "string" && x !== "").join("\n");
}

/** The text without its blank lines (a section whose optional line was left out). */
function noBlank(text: string): string {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .join("\n");
}

/** Picks one of several builders and runs it, so only the chosen variant draws randomness. */
function choose<T>(rng: Rng, variants: readonly (() => T)[]): T {
  return rng.pick(variants)();
}

export const staticSite: SeedTemplate = {
  id: "static-site",
  category: "networking",
  image: "ubuntu:24.04",
  difficulty: "easy",
  profile: (p) => ({ dataDir: `${p.root}/public` }),
  build(rng, p) {
    const pub = `${p.root}/public`;
    const conf = `/etc/nginx/conf.d/${p.app}.conf`;
    const check = `${p.reportDir}/http_check.txt`;
    const html = `<!doctype html>\n<html><head><title>${p.app}</title></head>\n<body><h1>${p.app} status</h1><p>build ${rng.hex(7)}</p></body></html>\n`;
    const port = p.port;

    const n = rng.pick([
      { root: "PUB", conf: "CONF", out: "REPORT" },
      { root: "DOCROOT", conf: "SITE_CONF", out: "CHECK" },
      { root: "WEBROOT", conf: "VHOST", out: "OUT" },
      { root: "SITE_DIR", conf: "NGINX_CONF", out: "RESULT" },
    ]);
    const R = `"$${n.root}"`;
    const RI = `"$${n.root}/index.html"`;
    const C = `"$${n.conf}"`;
    // How the script spells the site's address: literally, or through a variable.
    const addr = rng.pick(["literal", "base", "port"] as const);
    const url = (path: string) => (addr === "base" ? `"$BASE${path}"` : addr === "port" ? `"http://127.0.0.1:$PORT${path}"` : `"http://127.0.0.1:${port}${path}"`);
    const namedOut = rng.chance(0.6);
    const O = namedOut ? `"$${n.out}"` : check;
    const vars = rng.shuffle([
      `${n.root}=${pub}`,
      `${n.conf}=${conf}`,
      ...(namedOut ? [`${n.out}=${check}`] : []),
      ...(addr === "base" ? [`BASE=http://127.0.0.1:${port}`] : addr === "port" ? [`PORT=${port}`] : []),
    ]);
    const header = rng.pick([
      `# Serve the static site with nginx on port ${port}, gzip on, caching headers for assets.`,
      `# nginx virtual host for the ${p.app} status page: static files only, assets cached by the browser.`,
      `# Publish ${pub} through nginx, then smoke-test it over HTTP and keep the results.`,
      `# Static hosting for ${p.app}: one server block, default site off, quick curl check at the end.`,
    ]);

    const docroot = choose(rng, [
      () => sh`
        test -f ${RI}
        find ${R} -type d -exec chmod 755 {} +
        find ${R} -type f -exec chmod 644 {} +`,
      () => sh`
        if [ ! -s ${RI} ]; then
          echo "no index.html under $${n.root}" >&2
          exit 1
        fi
        # nginx runs as www-data: directories traversable, files world-readable.
        chmod -R u=rwX,go=rX ${R}`,
      () => sh`
        [ -r ${RI} ] || { echo "missing $${n.root}/index.html" >&2; exit 1; }
        chmod -R a+rX ${R}
        namei -m ${RI}`,
      () => sh`
        ls -ld ${R} ${RI}
        find ${R} -type d ! -perm 0755 -exec chmod 0755 {} \\;
        find ${R} -type f ! -perm 0644 -exec chmod 0644 {} \\;`,
    ]);

    const defaultSite = choose(rng, [
      () => `rm -f /etc/nginx/sites-enabled/default`,
      () => sh`
        # Drop the stock default site; only our server block should answer.
        find /etc/nginx/sites-enabled -maxdepth 1 -name default -delete`,
      () => sh`
        if [ -L /etc/nginx/sites-enabled/default ]; then
          unlink /etc/nginx/sites-enabled/default
        fi`,
      () => sh`
        # Only our server block should be enabled.
        rm -f /etc/nginx/sites-enabled/*`,
    ]);

    // The server block: its layout, and whether the heredoc expands shell variables.
    const expand = rng.chance(0.4);
    const d = expand ? "\\$" : "$";
    const rootRef = expand ? `$${n.root}` : pub;
    const portRef = expand && addr === "port" ? "$PORT" : String(port);
    const customLog = rng.chance(0.25);
    const logLines = customLog ? [`    access_log /var/log/nginx/${p.app}.access.log;`] : [];
    const body = choose(rng, [
      () => [
        "server {",
        `    listen ${portRef};`,
        `    server_name ${p.app}.local;`,
        `    root ${rootRef};`,
        "    index index.html;",
        ...logLines,
        "    gzip on;",
        "    gzip_types text/css application/javascript;",
        `    location ~* \\.(css|js|png)${d} { expires 7d; }`,
        `    location / { try_files ${d}uri ${d}uri/ =404; }`,
        "}",
      ],
      () => [
        "server {",
        `    listen ${portRef};`,
        "    server_name _;",
        "",
        `    root ${rootRef};`,
        "    index index.html;",
        ...logLines,
        "",
        "    location / {",
        `        try_files ${d}uri ${d}uri/ =404;`,
        "    }",
        "",
        `    location ~* \\.(?:css|js|svg|png|jpe?g|ico)${d} { expires 30d; }`,
        "}",
      ],
      () => [
        `# ${p.app} status site`,
        "server {",
        `    server_name ${p.app}.local localhost;`,
        `    listen ${portRef};`,
        `    root ${rootRef};`,
        "    index index.html;",
        ...logLines,
        "    gzip on;",
        "    gzip_types text/plain text/css application/javascript application/json image/svg+xml;",
        "    location = /favicon.ico { access_log off; log_not_found off; }",
        "    location /assets/ { expires 7d; }",
        `    location / { try_files ${d}uri ${d}uri/ =404; }`,
        "}",
      ],
    ]);
    const tag = rng.pick(["EOF", "NGINX", "END"]);
    const writer = expand
      ? rng.pick([`cat > ${C} <<${tag}`, `tee ${C} > /dev/null <<${tag}`])
      : rng.pick([`cat > ${C} <<'${tag}'`, `tee ${C} > /dev/null <<'${tag}'`]);
    const serverBlock = [writer, ...body, tag].join("\n");

    const startNginx = choose(rng, [
      () => ({
        text: sh`
          nginx -t
          if pgrep -x nginx > /dev/null; then nginx -s reload; else nginx; fi`,
        says: true,
      }),
      () => ({
        text: sh`
          nginx -t -q
          if [ -s /run/nginx.pid ] && kill -0 "$(cat /run/nginx.pid)" 2> /dev/null; then
            nginx -s reload
          else
            nginx
          fi`,
        says: false,
      }),
      () => ({
        text: sh`
          if ! nginx -t 2> /tmp/nginx-configtest.log; then
            cat /tmp/nginx-configtest.log >&2
            exit 1
          fi
          # Reload a running master, or start one (no init system in the container).
          nginx -s reload 2> /dev/null || nginx`,
        says: false,
      }),
    ]);

    const waitUp = choose(rng, [
      () => sh`
        for i in $(seq 1 10); do
          curl -fs -o /dev/null ${url("/")} && break
          sleep 0.5
        done`,
      () => sh`
        # Give nginx up to five seconds; the status checks below fail loudly if it never answers.
        tries=0
        until curl -fs -o /dev/null ${url("/")} || [ $((tries += 1)) -ge 20 ]; do sleep 0.25; done`,
      () => `timeout 15 sh -c 'until curl -fs -o /dev/null http://127.0.0.1:${port}/; do sleep 0.5; done'`,
      () => sh`
        for _ in {1..20}; do
          ss -ltn "sport = :${port}" | grep -q LISTEN && break
          sleep 0.25
        done`,
    ]);

    const mkReports = rng.pick([
      `mkdir -p ${p.reportDir}`,
      `install -d -m 755 ${p.reportDir}`,
      namedOut ? `mkdir -p "$(dirname "$${n.out}")"` : `mkdir -p ${p.reportDir}`,
    ]);

    const gzipProbe = rng.pick(["headers", "encoding", "none"] as const);
    const gzipKey = gzipProbe === "headers" ? "gzip=$gz" : gzipProbe === "encoding" ? "encoding=${enc:-identity}" : null;
    const gz =
      gzipProbe === "headers"
        ? `gz=$(curl -s -H 'Accept-Encoding: gzip' -o /dev/null -D - ${url("/")} | grep -ci '^content-encoding: gzip' || true)`
        : gzipProbe === "encoding"
          ? `enc=$(curl -s -H 'Accept-Encoding: gzip' -o /dev/null -w '%header{content-encoding}' ${url("/")})`
          : null;
    const probes = choose(rng, [
      () =>
        lines(
          `code=$(curl -s -o /dev/null -w '%{http_code}' ${url("/")})`,
          `missing=$(curl -s -o /dev/null -w '%{http_code}' ${url("/nope.html")})`,
          `title=$(curl -s ${url("/")} | grep -o '<title>[^<]*' | cut -d'>' -f2)`,
          gz,
        ),
      () =>
        lines(
          sh`
            status_of() {
              curl -s -o /dev/null -w '%{http_code}' "${addr === "base" ? "$BASE" : addr === "port" ? "http://127.0.0.1:$PORT" : `http://127.0.0.1:${port}`}$1"
            }
            code=$(status_of /)
            missing=$(status_of /no-such-page.html)
            title=$(curl -s ${url("/")} | sed -n 's:.*<title>\\([^<]*\\)</title>.*:\\1:p')`,
          gz,
        ),
      () =>
        lines(
          sh`
            # Keep the headers and body of the index for a closer look.
            curl -s -D /tmp/site-index.headers -o /tmp/site-index.html ${url("/")}
            code=$(awk 'NR == 1 { print $2 }' /tmp/site-index.headers)
            title=$(grep -oP '(?<=<title>)[^<]+' /tmp/site-index.html)
            missing=$(curl -s -o /dev/null -w '%{http_code}' ${url("/missing-page")})`,
          gz,
        ),
    ]);

    const verdict = choose(rng, [
      () => sh`
        if [ "$code" != "200" ] || [ "$missing" != "404" ]; then
          echo "unexpected status codes: $code / $missing" >&2
          exit 1
        fi`,
      () => sh`
        if [ "$code:$missing" != "200:404" ]; then
          echo "expected 200 for / and 404 for an unknown path, got $code and $missing" >&2
          exit 1
        fi`,
      () => sh`
        case "$code/$missing" in
          200/404) ;;
          *) echo "status check failed: / -> $code, unknown path -> $missing" >&2; exit 1 ;;
        esac`,
    ]);

    const reportKeys = ["index=$code", "missing=$missing", "title=$title", ...(gzipKey ? [gzipKey] : [])];
    const report = choose(rng, [
      () => [`cat > ${O} <<EOF`, ...reportKeys, "EOF"].join("\n"),
      () => `printf '%s\\n' ${reportKeys.map((k) => `"${k}"`).join(" ")} > ${O}`,
      () => ["{", ...reportKeys.map((k) => `  echo "${k}"`), `} > ${O}`].join("\n"),
    ]);

    const accessLog = customLog ? `/var/log/nginx/${p.app}.access.log` : "/var/log/nginx/access.log";
    const after = rng.shuffle(
      [
        rng.chance(0.5) ? rng.pick([`ss -ltn | grep -q ":${port} "`, `ss -ltnH "sport = :${port}" | grep -q .`]) : null,
        rng.chance(0.4) ? `tail -n 2 ${accessLog}` : null,
        rng.chance(0.25) ? `cat ${O}` : null,
        rng.chance(0.2) ? `pgrep -a nginx | head -n 3` : null,
      ].filter((x): x is string => x !== null),
    );
    const done = rng.pick([
      { cmd: `echo "site up on :${port} ($title)"`, out: `site up on :${port} (${p.app})` },
      { cmd: `echo "nginx serves $${n.root} on port ${port}: / -> $code, unknown -> $missing"`, out: `nginx serves ${pub} on port ${port}: / -> 200, unknown -> 404` },
      { cmd: `echo "HTTP check for '$title' written to ${namedOut ? `$${n.out}` : check}"`, out: `HTTP check for '${p.app}' written to ${check}` },
    ]);

    // Config first or docroot first: either order works before nginx -t.
    const prep = rng.chance(0.5) ? [docroot, defaultSite, serverBlock] : rng.chance(0.5) ? [serverBlock, docroot, defaultSite] : [docroot, serverBlock, defaultSite];
    const reportFirst = rng.chance(0.5);
    const script = lines(
      header,
      ...vars,
      ...prep,
      startNginx.text,
      waitUp,
      reportFirst ? mkReports : null,
      probes,
      verdict,
      reportFirst ? null : mkReports,
      report,
      ...after,
      done.cmd,
    );

    const intro = choose(rng, [
      () => [
        `Serve \`${pub}\` (it contains index.html) with nginx on port ${port} using a server block in \`${conf}\`: index.html as index, 404 for unknown paths, and the default site disabled.`,
        "",
        `Check it with curl and record \`index=<code>\`, \`missing=<code>\` and \`title=<page title>\` lines in \`${check}\`.`,
        "",
        "Leave index.html untouched and keep nginx running after the solution finishes.",
      ],
      () => [
        `Configure nginx to serve \`${pub}\` on port ${port} from a server block in \`${conf}\`: index.html as the index, 404 for missing paths, default site disabled.`,
        "",
        `Verify it with curl and write \`index=<code>\`, \`missing=<code>\` and \`title=<page title>\` lines to \`${check}\`.`,
        "",
        "Do not modify index.html, and leave nginx running when you are done.",
      ],
      () => [
        `The ${p.app} status page lives in \`${pub}\` (index.html). Serve it with nginx on port ${port} from a server block at \`${conf}\`: index.html as the index, 404 for unknown paths, default site off.`,
        "",
        `Probe it with curl and save \`index=<code>\`, \`missing=<code>\` and \`title=<page title>\` lines to \`${check}\`.`,
        "",
        "Keep index.html as shipped and nginx running afterwards.",
      ],
    ]).join("\n");

    return {
      title: rng.pick([`Serve the ${p.app} status site`, `Host the ${p.app} status page with nginx`, `Publish the ${p.app} status site`]),
      intro,
      packages: ["nginx", "curl", "iproute2", "procps"],
      fixtures: [{ src: "index.html", dest: `${pub}/index.html`, content: html }],
      script,
      output: [...(startNginx.says ? ["nginx: configuration file /etc/nginx/nginx.conf test is successful"] : []), done.out],
      tests: [
        fixtureIntact(`${pub}/index.html`, lineCount(html)),
        test("test_server_block", "The server block listens on the service port.", 0, [new Part(conf).isFile().contains(`listen ${port};`, `root ${pub};`).build()]),
        test("test_site_answers", "The site answers 200 and 404 as expected.", 0, [
          new Part(conf, "c").run(["curl", "-s", `http://127.0.0.1:${port}/`], `${p.app} status`).build(),
        ]),
        test("test_http_check_report", "The HTTP check is recorded.", 0, [new Part(check).isFile().contains("index=200", "missing=404", `title=${p.app}`).build()]),
      ],
      artifacts: [
        { path: conf, kind: "config" },
        { path: check, kind: "config" },
      ],
      inputs: [{ path: `${pub}/index.html`, kind: "file" }],
      tags: ["nginx", "http", "web"],
    };
  },
};

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
    const script = lines(header, ...vars, mkFirst ? mkdir : null, guard, mkFirst ? null : mkdir, parse, rowCheck, clash, ...counts, sanity, writeSummary, show.text, fin.cmd);

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

/** on_hand per SKU, as the stock view computes it from the seed's fixtures. */
function stockLevels(products: string, moves: string): { sku: string; reorder: number; onHand: number }[] {
  const onHand = new Map<string, number>();
  for (const row of moves.split("\n").slice(1)) {
    const [sku, , qty] = row.split(",");
    if (sku) onHand.set(sku, (onHand.get(sku) ?? 0) + Number(qty));
  }
  return products
    .split("\n")
    .slice(1)
    .filter((r) => r !== "")
    .map((r) => {
      const [sku = "", , , level] = r.split(",");
      return { sku, reorder: Number(level), onHand: onHand.get(sku) ?? 0 };
    });
}

export const sqliteInventory: SeedTemplate = {
  id: "sqlite-inventory",
  category: "databases",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const skus = rng.int(8, 15);
    const products = productsCsv(rng, skus);
    const moves = stockMovesCsv(rng, rng.int(30, 60), skus);
    const db = `${p.root}/inventory.db`;
    const low = `${p.reportDir}/low_stock.csv`;
    const cats = `${p.reportDir}/categories.txt`;
    const levels = stockLevels(products, moves);
    const lowCount = levels.filter((s) => s.onHand < s.reorder).length;
    const moveCount = lineCount(moves) - 1;

    const n = rng.pick([
      { db: "DB", data: "DATA", out: "OUT", np: "products", nm: "moves" },
      { db: "DB_FILE", data: "SRC", out: "REPORTS", np: "n_products", nm: "n_moves" },
      { db: "DBPATH", data: "INPUT", out: "DEST", np: "product_rows", nm: "move_rows" },
    ]);
    const D = `"$${n.db}"`;
    const namedOut = rng.chance(0.5);
    const LOW = namedOut ? `"$${n.out}/low_stock.csv"` : low;
    const CATS = namedOut ? `"$${n.out}/categories.txt"` : cats;
    const staged = rng.chance(0.3);
    const T = staged ? `"$STAGE"` : D;
    const src = (f: string) => `"$${n.data}/${f}"`;
    const idx = rng.pick(["idx_moves_sku", "stock_moves_sku_idx", "ix_stock_moves_sku"]);
    const indexLater = rng.chance(0.5);

    const header = rng.pick([
      "# Load products and stock movements into SQLite and flag what needs reordering.",
      `# Rebuild the ${p.app} inventory database from the CSV exports, then report low stock.`,
      "# Inventory: CSV -> SQLite (tables, index, on-hand view), then two small reports.",
    ]);
    const vars = rng.shuffle([`${n.db}=${db}`, `${n.data}=${p.dataDir}`, ...(namedOut ? [`${n.out}=${p.reportDir}`] : [])]);
    const mkdir = rng.pick([`mkdir -p ${namedOut ? `"$${n.out}"` : p.reportDir}`, `install -d -m 0755 ${p.reportDir}`]);
    const fresh = staged
      ? rng.pick([
          lines(`# Build next to the live file and swap it in once it checks out.`, `STAGE="$${n.db}.new"`, `rm -f "$STAGE"`),
          lines(`STAGE="$${n.db}.tmp"`, `trap 'rm -f "$STAGE"' EXIT`, `rm -f "$STAGE"`),
        ])
      : rng.pick([`rm -f ${D}`, lines(`# Start from an empty file so a rebuild gives the same result.`, `rm -f ${D} ${D.slice(0, -1)}-journal"`), sh`
          if [ -e ${D} ]; then
            rm -- ${D}
          fi`]);

    const indexSql = `CREATE INDEX ${idx} ON stock_moves(sku);`;
    const schema = noBlank(choose(rng, [
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE TABLE products (
          sku TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          category TEXT,
          reorder_level INTEGER NOT NULL
        );
        CREATE TABLE stock_moves (
          sku TEXT NOT NULL REFERENCES products(sku),
          moved_at TEXT NOT NULL,
          quantity INTEGER NOT NULL
        );
        ${indexLater ? "" : indexSql}
        SQL`,
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE TABLE products (sku TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, reorder_level INTEGER NOT NULL CHECK (reorder_level >= 0));
        CREATE TABLE stock_moves (sku TEXT NOT NULL REFERENCES products (sku), moved_at TEXT NOT NULL, quantity INTEGER NOT NULL);
        ${indexLater ? "" : indexSql}
        SQL`,
      () => sh`
        cat > /tmp/inventory-schema.sql <<'SQL'
        create table products (
            sku           text primary key,
            name          text not null,
            category      text not null,
            reorder_level integer not null
        );
        create table stock_moves (
            sku      text not null references products (sku),
            moved_at text not null,
            quantity integer not null
        );
        ${indexLater ? "" : `create index ${idx} on stock_moves (sku);`}
        SQL
        ${rng.pick([`sqlite3 ${T} < /tmp/inventory-schema.sql`, `sqlite3 ${T} ".read /tmp/inventory-schema.sql"`])}`,
    ]));

    const load = choose(rng, [
      () => lines(`sqlite3 ${T} ".import --csv --skip 1 ${src("products.csv").slice(1, -1)} products"`, `sqlite3 ${T} ".import --csv --skip 1 ${src("stock_moves.csv").slice(1, -1)} stock_moves"`),
      () => sh`
        sqlite3 ${T} <<SQL
        .mode csv
        .import --skip 1 $${n.data}/products.csv products
        .import --skip 1 $${n.data}/stock_moves.csv stock_moves
        SQL`,
      () => sh`
        # Import into scratch tables (header row = column names), then copy with explicit casts.
        sqlite3 ${T} <<SQL
        .import --csv $${n.data}/products.csv products_raw
        .import --csv $${n.data}/stock_moves.csv moves_raw
        INSERT INTO products SELECT sku, name, category, CAST(reorder_level AS INTEGER) FROM products_raw;
        INSERT INTO stock_moves SELECT sku, moved_at, CAST(quantity AS INTEGER) FROM moves_raw;
        DROP TABLE products_raw;
        DROP TABLE moves_raw;
        SQL`,
    ]);
    const index = indexLater ? rng.pick([`sqlite3 ${T} "${indexSql}"`, `sqlite3 ${T} "CREATE INDEX IF NOT EXISTS ${idx} ON stock_moves (sku);"`]) : null;

    const view = choose(rng, [
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE VIEW stock AS
          SELECT p.sku, p.name, p.reorder_level, COALESCE(SUM(m.quantity), 0) AS on_hand
          FROM products p
          LEFT JOIN stock_moves m ON m.sku = p.sku
          GROUP BY p.sku;
        SQL`,
      () => `sqlite3 ${T} "CREATE VIEW stock AS SELECT p.sku, p.name, p.reorder_level, IFNULL((SELECT SUM(m.quantity) FROM stock_moves m WHERE m.sku = p.sku), 0) AS on_hand FROM products p;"`,
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE VIEW stock AS
        WITH totals AS (
          SELECT sku, SUM(quantity) AS qty FROM stock_moves GROUP BY sku
        )
        SELECT p.sku, p.name, p.category, p.reorder_level, COALESCE(t.qty, 0) AS on_hand
        FROM products AS p
        LEFT JOIN totals AS t USING (sku);
        SQL`,
    ]);
    const viewFirst = rng.chance(0.4);

    const NP = n.np;
    const NM = n.nm;
    const counts = choose(rng, [
      () => sh`
        ${NP}=$(sqlite3 ${T} "SELECT COUNT(*) FROM products;")
        ${NM}=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves;")
        expected=$(($(wc -l < ${src("stock_moves.csv")}) - 1))
        if [ "$${NM}" -ne "$expected" ]; then
          echo "imported $${NM} of $expected movements" >&2
          exit 1
        fi`,
      () => sh`
        read -r ${NP} ${NM} <<< "$(sqlite3 -separator ' ' ${T} 'SELECT (SELECT COUNT(*) FROM products), (SELECT COUNT(*) FROM stock_moves);')"
        csv_rows=$(tail -n +2 ${src("stock_moves.csv")} | wc -l)
        [ "$${NM}" -eq "$csv_rows" ] || { echo "stock_moves has $${NM} rows, the CSV $csv_rows" >&2; exit 1; }`,
      () => sh`
        for table in products stock_moves; do
          want=$(awk 'END { print NR - 1 }' "$${n.data}/$table.csv")
          got=$(sqlite3 ${T} "SELECT COUNT(*) FROM $table;")
          if [ "$got" != "$want" ]; then
            echo "$table: loaded $got of $want rows" >&2
            exit 1
          fi
        done
        ${NP}=$(($(wc -l < ${src("products.csv")}) - 1))
        ${NM}=$(($(wc -l < ${src("stock_moves.csv")}) - 1))`,
    ]);
    const orphans = rng.pick([
      sh`
        orphans=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves WHERE sku NOT IN (SELECT sku FROM products);")
        [ "$orphans" -eq 0 ] || { echo "$orphans movements reference unknown SKUs" >&2; exit 1; }`,
      sh`
        if [ -n "$(sqlite3 ${T} 'PRAGMA foreign_key_check;')" ]; then
          echo "stock_moves references SKUs missing from products" >&2
          exit 1
        fi`,
      sh`
        dangling=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves m LEFT JOIN products p ON p.sku = m.sku WHERE p.sku IS NULL;")
        if [ "$dangling" != 0 ]; then
          echo "$dangling stock movements have no product" >&2
          exit 1
        fi`,
    ]);
    const distinct = rng.chance(0.6)
      ? sh`
        skus=$(tail -n +2 ${src("stock_moves.csv")} | cut -d, -f1 | sort -u | wc -l)
        moved=$(sqlite3 ${T} "SELECT COUNT(DISTINCT sku) FROM stock_moves;")
        if [ "$skus" -ne "$moved" ]; then
          echo "expected $skus distinct SKUs with movements, found $moved" >&2
          exit 1
        fi`
      : null;
    const integrity = rng.pick([
      `sqlite3 ${T} "PRAGMA integrity_check;" | grep -qx ok`,
      `[ "$(sqlite3 ${T} 'PRAGMA quick_check;')" = ok ]`,
      sh`
        health=$(sqlite3 ${T} "PRAGMA integrity_check;")
        if [ "$health" != ok ]; then
          echo "integrity check failed: $health" >&2
          exit 1
        fi`,
    ]);
    const checks = rng.shuffle([orphans, distinct, integrity].filter((x): x is string => x !== null));
    const analyze = rng.pick([`sqlite3 ${T} "ANALYZE;"`, `sqlite3 ${T} "VACUUM;"`, null]);
    const swap = staged ? rng.pick([`mv -f "$STAGE" ${D}`, `mv "$STAGE" ${D}`]) : null;

    const order = rng.pick(["on_hand, sku", "sku", "reorder_level - on_hand DESC, sku"]);
    // sqlite3 prints no header for an empty result: write it explicitly so the file always has one.
    const lowExport = choose(rng, [
      () => sh`
        echo "sku,name,on_hand,reorder_level" > ${LOW}
        sqlite3 -csv ${D} "SELECT sku, name, on_hand, reorder_level FROM stock WHERE on_hand < reorder_level ORDER BY ${order};" >> ${LOW}`,
      () => sh`
        sqlite3 ${D} > ${LOW} <<'SQL'
        .mode csv
        .print sku,name,on_hand,reorder_level
        SELECT sku, name, on_hand, reorder_level
        FROM stock
        WHERE on_hand < reorder_level
        ORDER BY ${order};
        SQL`,
      () => sh`
        {
          printf '%s\\n' 'sku,name,on_hand,reorder_level'
          sqlite3 -csv ${D} 'SELECT sku, name, on_hand, reorder_level FROM stock WHERE on_hand < reorder_level ORDER BY ${order}'
        } > ${LOW}`,
    ]);
    const catExport = rng.pick([
      `sqlite3 -separator ' ' ${D} "SELECT category, COUNT(*) FROM products GROUP BY category ORDER BY category;" > ${CATS}`,
      sh`
        while read -r count category; do
          echo "$category $count"
        done < <(tail -n +2 ${src("products.csv")} | cut -d, -f3 | sort | uniq -c) > ${CATS}`,
      `sqlite3 ${D} "SELECT category || ' ' || COUNT(*) FROM products GROUP BY category ORDER BY 1;" > ${CATS}`,
      `awk -F, 'NR > 1 { n[$3]++ } END { for (c in n) print c, n[c] }' ${src("products.csv")} | sort > ${CATS}`,
    ]);
    const exportsInOrder = rng.chance(0.6) ? [lowExport, catExport] : [catExport, lowExport];

    const lowN = `$${rng.pick(["below", "short", "n_low"])}`;
    const tail = rng.shuffle(
      [
        rng.pick([
          `sqlite3 ${D} "SELECT sku, on_hand FROM stock ORDER BY on_hand DESC LIMIT 3;"`,
          `sqlite3 -column -header ${D} "SELECT sku, name, on_hand FROM stock ORDER BY on_hand DESC, sku LIMIT 5;"`,
          `sqlite3 ${D} "SELECT 'out of stock: ' || COUNT(*) FROM stock WHERE on_hand <= 0;"`,
        ]),
        rng.pick([`chmod 640 ${D}`, `chmod 0644 ${D}`, null]),
      ].filter((x): x is string => x !== null),
    );
    const showLow = rng.chance(0.5);
    const fin = choose(rng, [
      () => ({
        text: `echo "$${NP} products, $${NM} movements, $(($(wc -l < ${LOW}) - 1)) below reorder level"`,
        out: `${skus} products, ${moveCount} movements, ${lowCount} below reorder level`,
      }),
      () => ({
        text: lines(`${lowN.slice(1)}=$(sqlite3 ${D} "SELECT COUNT(*) FROM stock WHERE on_hand < reorder_level;")`, `echo "loaded $${NP} products and $${NM} stock movements; ${lowN} SKUs need reordering"`),
        out: `loaded ${skus} products and ${moveCount} stock movements; ${lowCount} SKUs need reordering`,
      }),
      () => ({
        text: lines(`${lowN.slice(1)}=$(tail -n +2 ${LOW} | wc -l)`, `echo "${lowN} of $${NP} SKUs are below their reorder level ($${NM} movements loaded)"`),
        out: `${lowCount} of ${skus} SKUs are below their reorder level (${moveCount} movements loaded)`,
      }),
    ]);

    const script = lines(
      header,
      ...vars,
      mkdir,
      fresh,
      schema,
      viewFirst ? view : null,
      load,
      index,
      viewFirst ? null : view,
      counts,
      ...checks,
      analyze,
      swap,
      ...exportsInOrder,
      ...tail,
      showLow ? `wc -l ${LOW}` : null,
      fin.text,
    );

    const intro = choose(rng, [
      () => [
        `Load \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\` into SQLite at \`${db}\` (tables products and stock_moves, an index on stock_moves.sku, and a view stock with on_hand per SKU).`,
        "",
        `Export SKUs whose on_hand is below reorder_level to \`${low}\` (sku,name,on_hand,reorder_level) and product counts per category to \`${cats}\`.`,
        "",
        "Rebuilding the database from scratch must always give exactly the same result.",
      ],
      () => [
        `Build the SQLite database \`${db}\` from \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\`: tables products and stock_moves, an index on stock_moves.sku, and a view stock giving on_hand for every SKU.`,
        "",
        `Write the SKUs with on_hand below reorder_level to \`${low}\` (columns sku,name,on_hand,reorder_level), and the number of products per category to \`${cats}\`.`,
        "",
        "A rebuild from scratch must give exactly the same result.",
      ],
      () => [
        `The ${p.app} stock data ships as \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\`. Load both into \`${db}\` as tables products and stock_moves, index stock_moves.sku, and add a view stock with on_hand per SKU.`,
        "",
        `Then export what needs reordering (on_hand below reorder_level) to \`${low}\` as sku,name,on_hand,reorder_level, and count products per category in \`${cats}\`. Rebuilding from scratch must always give the same result.`,
      ],
    ]).join("\n");

    const checkIndex = rng.chance(0.5);
    const exactLow = rng.chance(0.4);
    const viewPart = new Part(db, "d").sql("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stock'", "==", 1);
    if (checkIndex) viewPart.sql("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stock_moves' AND sql IS NOT NULL", ">=", 1);
    const lowPart = new Part(low).isFile().csvHeader(["sku", "name", "on_hand", "reorder_level"], 0);
    if (exactLow) lowPart.raw([`assert len(rows) - 1 == ${lowCount}`], 1, [`AssertionError: assert 0 == ${lowCount}`]);
    return {
      title: rng.pick([`Build the ${p.app} stock database`, `Load ${p.app} inventory into SQLite`, `Find ${p.app} SKUs that need reordering`]),
      intro,
      packages: ["sqlite3"],
      fixtures: [
        { src: "products.csv", dest: `${p.dataDir}/products.csv`, content: products },
        { src: "stock_moves.csv", dest: `${p.dataDir}/stock_moves.csv`, content: moves },
      ],
      script,
      output: [...(showLow ? [`${lowCount + 1} ${low}`] : []), fin.out],
      tests: [
        fixtureIntact(`${p.dataDir}/stock_moves.csv`, lineCount(moves)),
        test("test_tables_loaded", "Both tables hold every CSV row.", 0, [
          new Part(db).isFile().sql("SELECT COUNT(*) FROM products", "==", skus).sql("SELECT COUNT(*) FROM stock_moves", "==", moveCount).build(),
        ]),
        test("test_stock_view", checkIndex ? "The stock view and an index on stock_moves exist." : "The stock view exists.", 0, [viewPart.build()]),
        test("test_low_stock_export", exactLow ? "Low-stock export has the expected header and rows." : "Low-stock export has the expected header.", 0, [lowPart.build()]),
        test("test_categories", "Categories are counted.", 0, [new Part(cats).isFile().matches("^[a-z]+ [0-9]+$", "category line").build()]),
      ],
      artifacts: [
        { path: db, kind: "db", table: "products", columns: ["sku", "name", "category", "reorder_level"] },
        { path: low, kind: "csv", columns: ["sku", "name", "on_hand", "reorder_level"] },
        { path: cats, kind: "file" },
      ],
      inputs: [
        { path: `${p.dataDir}/products.csv`, kind: "csv", columns: ["sku", "name", "category", "reorder_level"] },
        { path: `${p.dataDir}/stock_moves.csv`, kind: "csv", columns: ["sku", "moved_at", "quantity"] },
      ],
      tags: ["sqlite", "sql", "inventory"],
    };
  },
};
