// The other side of archive.ts: a run directory packed as the tar a pipeline uploads (used by
// tests and the e2e suite; a CLI upload command would use it too).
import fs from "node:fs";
import path from "node:path";
import tar from "tar-stream";

/** Every regular file under `dir`, named `<prefix>/<relative path>` (no prefix: the relative path), as one tar. */
export async function packDirectory(dir: string, prefix = "run"): Promise<Buffer> {
  const pack = tar.pack();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) pack.entry({ name: prefix ? `${prefix}/${r}` : r }, fs.readFileSync(path.join(dir, r)));
    }
  };
  walk("");
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
