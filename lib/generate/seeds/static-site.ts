// Networking seed: serve a static status site with an nginx server block and check it with curl;
// every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, joinLines } from "./compose";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

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
        joinLines(
          `code=$(curl -s -o /dev/null -w '%{http_code}' ${url("/")})`,
          `missing=$(curl -s -o /dev/null -w '%{http_code}' ${url("/nope.html")})`,
          `title=$(curl -s ${url("/")} | grep -o '<title>[^<]*' | cut -d'>' -f2)`,
          gz,
        ),
      () =>
        joinLines(
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
        joinLines(
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
    const script = joinLines(
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
