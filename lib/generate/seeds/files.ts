// File-operation seeds: rotating backups, sorting an upload inbox.
import { sh } from "../operators/common";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const backupRotation: SeedTemplate = {
  id: "backup-rotation",
  category: "file-operations",
  image: "ubuntu:24.04",
  difficulty: "easy",
  build(rng, p) {
    const keep = rng.pick([3, 5, 7]);
    const dest = `/var/backups/${p.app}/daily`;
    const notes = `${p.dataDir}/notes.txt`;
    const notesText = Array.from({ length: rng.int(6, 14) }, (_, i) => `note ${i + 1}: ${rng.pick(["rotate keys", "renew cert", "prune images", "check disk", "update runbook"])}`).join("\n") + "\n";
    const index = `${dest}/INDEX`;
    const script = sh`
      # Daily backups of the data directory, keeping the newest ${keep} and an index of them.
      DATA=${p.dataDir}
      DEST=${dest}
      KEEP=${keep}
      PARENT=$(dirname "$DATA")
      NAME=$(basename "$DATA")
      install -d -m 750 "$DEST"
      if [ ! -d "$DATA" ]; then
        echo "nothing to back up: $DATA" >&2
        exit 1
      fi

      # Backfill the previous days so rotation can be exercised deterministically.
      for day in 01 02 03 04 05 06 07 08; do
        archive="$DEST/${p.app}-2024-03-$day.tar.gz"
        if [ ! -f "$archive" ]; then
          tar -czf "$archive" -C "$PARENT" "$NAME"
        fi
        touch -d "2024-03-$day 02:00" "$archive"
      done
      today="$DEST/${p.app}-$(date -u +%Y-%m-%d).tar.gz"
      tar -czf "$today" -C "$PARENT" "$NAME"
      tar -tzf "$today" > /dev/null

      # Keep the newest archives by modification time; index them newest first.
      kept=0
      : > "$DEST/INDEX"
      for f in $(ls -1t "$DEST"/${p.app}-*.tar.gz); do
        kept=$((kept + 1))
        if [ "$kept" -gt "$KEEP" ]; then
          rm -f "$f"
          continue
        fi
        size=$(stat -c %s "$f")
        digest=$(sha256sum "$f" | cut -d' ' -f1)
        printf '%s %s %s\\n' "\${f##*/}" "$size" "$digest" >> "$DEST/INDEX"
      done
      chmod 640 "$DEST"/*.tar.gz
      newest=$(head -n 1 "$DEST/INDEX" | cut -d' ' -f1)
      if [ "$newest" != "\${today##*/}" ]; then
        echo "newest backup is $newest" >&2
        exit 1
      fi
      gzip -l "$today" | tail -n 1
      du -sh "$DEST"
      echo "kept $KEEP backups in $DEST"`;
    return {
      title: `Rotate ${p.app} daily backups`,
      intro: [
        `Back up \`${p.dataDir}\` as gzip tarballs named \`${p.app}-YYYY-MM-DD.tar.gz\` in \`${dest}\`. Create archives for 2024-03-01 to 2024-03-08 (mtime 02:00 that day) plus today's, then keep only the newest ${keep} archives (mode 0640).`,
        "",
        `List the kept archives newest first as "<name> <bytes> <sha256>" in \`${index}\`.`,
        "",
        "Leave the notes in place; every archive must contain the data directory itself.",
      ].join("\n"),
      packages: [],
      fixtures: [{ src: "notes.txt", dest: notes, content: notesText }],
      script,
      output: [`${rng.int(2, 90)}K\t${dest}`, `kept ${keep} backups in ${dest}`],
      tests: [
        fixtureIntact(notes, lineCount(notesText)),
        test("test_backup_count", `Exactly ${keep} archives are kept.`, 0, [
          new Part(dest).isDir().raw([`archives = sorted(p.glob(${JSON.stringify(`${p.app}-*.tar.gz`)}))`, `assert len(archives) == ${keep}`], 1, [`AssertionError: assert 0 == ${keep}`]).build(),
        ]),
        test("test_backups_private", "Archives are not world-readable.", 0, [
          new Part(dest, "d").raw([`assert all(stat.S_IMODE(a.stat().st_mode) == 0o640 for a in d.glob("*.tar.gz"))`], 1, ["AssertionError: assert False"]).build(),
        ]),
        test("test_backup_index", "The index lists the kept archives newest first.", 0, [
          new Part(index).isFile().raw(
            [`names = [l.split()[0] for l in p.read_text().splitlines()]`, `assert len(names) == ${keep}`, `assert names[0] > names[-1]`],
            2,
            [`AssertionError: assert 0 == ${keep}`],
          ).build(),
        ]),
      ],
      artifacts: [
        { path: dest, kind: "dir" },
        { path: index, kind: "file" },
      ],
      inputs: [{ path: notes, kind: "file" }],
      tags: ["backup", "tar", "rotation"],
    };
  },
};
