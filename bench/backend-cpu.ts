// CPU seconds the PostgreSQL backends of one database have used so far (Linux /proc, 100 ticks
// a second): on a shared machine, the steadier figure to compare two versions by.
import fs from "node:fs";

export function backendCpu(dbName: string): number {
  let ticks = 0;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${dbName} `)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}
