// Networking operators: local HTTP health probes, listening-port reports, host aliases.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { free, opResult, sh } from "./common";

export const curlHealthProbe: Operator = {
  id: "curl-health-probe",
  theme: "network",
  applies: (c) => free(c, `${c.profile.reportDir}/health.json`),
  build(c) {
    const { reportDir } = c.profile;
    const port = 9000 + c.rng.int(100, 899);
    const health = `${reportDir}/health.json`;
    const headers = `${reportDir}/health.headers`;
    const step = sh`
      # Probe the reports over HTTP the way the load balancer will, and keep the evidence.
      OUT=${health}
      python3 -m http.server ${port} --bind 127.0.0.1 --directory ${reportDir} > /dev/null 2>&1 &
      server=$!
      trap 'kill "$server" 2>/dev/null || true' EXIT
      for i in $(seq 1 20); do
        if nc -z 127.0.0.1 ${port}; then break; fi
        sleep 0.25
      done
      curl -fsS -D ${headers} -o /dev/null "http://127.0.0.1:${port}/"
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port}/")
      time_total=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:${port}/")
      missing=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port}/does-not-exist")
      jq -n --argjson code "$code" --argjson missing "$missing" --arg t "$time_total" \\
        '{status: $code, not_found_status: $missing, time_total: ($t | tonumber)}' > "$OUT"
      kill "$server"
      wait "$server" 2>/dev/null || true
      trap - EXIT
      [ "$code" = "200" ] || { echo "health probe got $code" >&2; exit 1; }`;
    return opResult(this.id, {
      step,
      output: [`127.0.0.1:${port}`],
      primary: { path: health, kind: "json" },
      secondary: { path: headers, kind: "file" },
      testName: "test_health_probe",
      testDoc: "The probe recorded 200 for the index and 404 for a missing path.",
      primaryPart: new Part(health).isFile().jsonKeys("status", "not_found_status", "time_total").raw(
        [`assert data["status"] == 200`, `assert data["not_found_status"] == 404`],
        2,
        ["AssertionError: assert 0 == 200"],
      ).build(),
      secondaryPart: new Part(headers, "hdr").isFile().contains("HTTP/1.0 200", "Content-type").build(),
      need: `Serve ${reportDir} on 127.0.0.1:${port}, probe it with curl and write status, not_found_status and time_total to \`${health}\`.`,
      needSecondary: `Keep the response headers in \`${headers}\`.`,
      label: "HTTP health probe",
      packages: ["curl", "jq", "netcat-openbsd", "iproute2", "python3"],
    });
  },
};

export const listeningPorts: Operator = {
  id: "listening-ports",
  theme: "network",
  applies: (c) => free(c, `${c.profile.reportDir}/listening-ports.txt`),
  build(c) {
    const { reportDir, port } = c.profile;
    const out = `${reportDir}/listening-ports.txt`;
    const step = sh`
      # Exposure audit: every listening TCP socket with its process, plus the expected port.
      OUT=${out}
      mkdir -p ${reportDir}
      python3 -m http.server ${port} --bind 127.0.0.1 > /dev/null 2>&1 &
      pid=$!
      sleep 1
      {
        echo "proto local_address process"
        ss -H -ltnp | awk '{ split($6, p, "\\""); print "tcp", $4, (p[2] == "" ? "-" : p[2]) }' | sort -u
      } > "$OUT"
      kill "$pid"
      wait "$pid" 2>/dev/null || true
      count=$(($(wc -l < "$OUT") - 1))
      if ! grep -q ":${port} " "$OUT"; then
        echo "port ${port} was not listening" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`${c.rng.int(1, 4)} listening sockets recorded`],
      primary: { path: out, kind: "file" },
      testName: "test_listening_ports",
      testDoc: `The audit lists the service port ${port}.`,
      primaryPart: new Part(out).isFile().contains("proto local_address process", `:${port} `).build(),
      need: `Record listening TCP sockets as "proto local_address process" lines in \`${out}\`, including the service on port ${port}.`,
      label: "listening ports",
      packages: ["iproute2", "netcat-openbsd", "python3"],
    });
  },
};

export const hostsAlias: Operator = {
  id: "hosts-alias",
  theme: "network",
  applies: (c) => free(c, `/etc/${c.profile.app}/hosts.d/internal.hosts`),
  build(c) {
    const { app } = c.profile;
    const dir = `/etc/${app}/hosts.d`;
    const file = `${dir}/internal.hosts`;
    const ip = `10.${c.rng.int(0, 255)}.${c.rng.int(0, 255)}.${c.rng.int(2, 250)}`;
    const step = sh`
      # Service discovery fallback: a hosts fragment resolvable through getent.
      HOSTS_D=${dir}
      install -d -m 755 "$HOSTS_D"
      printf '%s\\t%s %s\\n' "${ip}" "${app}-db.internal" "${app}-db" > ${file}
      printf '%s\\t%s\\n' "127.0.0.1" "${app}.internal" >> ${file}
      sed -i '/# ${app} internal/,/# end ${app}/d' /etc/hosts
      { echo "# ${app} internal"; cat ${file}; echo "# end ${app}"; } >> /etc/hosts
      resolved=$(getent hosts ${app}-db.internal | awk '{print $1}')
      if [ "$resolved" != "${ip}" ]; then
        echo "${app}-db.internal resolved to '$resolved'" >&2
        exit 1
      fi
      entries=$(grep -c '${app}' /etc/hosts)
      if [ "$entries" -lt 2 ]; then
        echo "only $entries ${app} entries in /etc/hosts" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`aliases installed: ${app}-db.internal -> ${ip}`],
      primary: { path: file, kind: "config" },
      secondary: { path: "/etc/hosts", kind: "file" },
      testName: "test_internal_host_aliases",
      testDoc: `${app}-db.internal resolves to ${ip}.`,
      primaryPart: new Part(file).isFile().contains(`${ip}\t${app}-db.internal`).build(),
      secondaryPart: new Part("/etc/hosts", "hosts").isFile().raw(
        [`assert socket.gethostbyname(${JSON.stringify(`${app}-db.internal`)}) == ${JSON.stringify(ip)}`],
        1,
        ["socket.gaierror: [Errno -2] Name or service not known"],
      ).build(),
      need: `Map ${app}-db.internal to ${ip} and ${app}.internal to 127.0.0.1 in \`${file}\`.`,
      needSecondary: `Merge it into \`/etc/hosts\` between "# ${app} internal" markers so getent resolves it.`,
      label: "host aliases",
    });
  },
};
