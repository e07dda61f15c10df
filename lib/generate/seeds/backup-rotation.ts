// File-operation seed: rotating dated gzip backups of a directory, keeping the newest few, with an
// index of the kept archives; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, join } from "./compose";
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
    const glob = `${p.app}-*.tar.gz`;
    const printed: string[] = [];

    const v = rng.pick([
      { data: "DATA", dest: "DEST", keep: "KEEP", parent: "PARENT", name: "NAME" },
      { data: "src_dir", dest: "backup_dir", keep: "keep", parent: "parent", name: "base" },
      { data: "SOURCE", dest: "ARCHIVE_DIR", keep: "RETAIN", parent: "SRC_PARENT", name: "SRC_NAME" },
      { data: "data_dir", dest: "vault", keep: "max_kept", parent: "top", name: "leaf" },
    ]);
    const $ = (name: string) => `"$${name}"`;
    // The index either gets its own variable or is spelled out under the backup directory.
    const ownIndex = rng.chance(0.5);
    const idx = ownIndex ? rng.pick(["INDEX", "index_file", "LISTING"]) : "";
    const I = ownIndex ? $(idx) : `"$${v.dest}/INDEX"`;

    const header = join([
      rng.pick([
        `# Daily backups of the data directory, keeping the newest ${keep} and an index of them.`,
        `# Rotate ${p.app} tarballs: backfill the first week of March, add today's, prune to ${keep}.`,
        "# Nightly archive job: tar the data directory, expire old archives, write an INDEX.",
      ]),
      ...rng.shuffle([`${v.data}=${p.dataDir}`, `${v.dest}=${dest}`, `${v.keep}=${keep}`, ...(ownIndex ? [`${idx}=${index}`] : [])]),
    ]);

    // How the archive's parent directory and member name are found.
    const split = choose(rng, [
      () => sh`
        ${v.parent}=$(dirname ${$(v.data)})
        ${v.name}=$(basename ${$(v.data)})`,
      () => sh`
        ${v.parent}=\${${v.data}%/*}
        ${v.name}=\${${v.data}##*/}`,
    ]);

    const guard = choose(rng, [
      () => sh`
        install -d -m 750 ${$(v.dest)}
        if [ ! -d ${$(v.data)} ]; then
          echo "nothing to back up: $${v.data}" >&2
          exit 1
        fi`,
      () => sh`
        [ -d ${$(v.data)} ] || { echo "missing data directory $${v.data}" >&2; exit 1; }
        mkdir -p ${$(v.dest)}
        chmod 750 ${$(v.dest)}`,
      () => sh`
        test -d ${$(v.data)}
        mkdir -p -m 750 ${$(v.dest)}`,
    ]);

    // One way to write an archive, used for the backfill and for today's run alike.
    const pack = rng.pick([
      { def: "", run: (a: string) => `tar -czf ${a} -C ${$(v.parent)} ${$(v.name)}` },
      { def: "", run: (a: string) => `tar -C ${$(v.parent)} -cf - ${$(v.name)} | gzip -n > ${a}` },
      {
        def: sh`
          snapshot() {
            tar --create --gzip --file="$1" --directory=${$(v.parent)} ${$(v.name)}
          }`,
        run: (a: string) => `snapshot ${a}`,
      },
    ]);

    const arch = rng.pick(["archive", "tarball", "f"]);
    const backfill = choose(rng, [
      () => sh`
        # Backfill the previous days so rotation can be exercised deterministically.
        for day in 01 02 03 04 05 06 07 08; do
          ${arch}="$${v.dest}/${p.app}-2024-03-$day.tar.gz"
          if [ ! -f "$${arch}" ]; then
            ${pack.run(`"$${arch}"`)}
          fi
          touch -d "2024-03-$day 02:00" "$${arch}"
        done`,
      () => sh`
        # Past days first, each stamped 02:00 so mtime order matches the calendar.
        for i in $(seq 1 8); do
          day=$(printf '%02d' "$i")
          ${arch}="$${v.dest}/${p.app}-2024-03-$day.tar.gz"
          [ -e "$${arch}" ] || ${pack.run(`"$${arch}"`)}
          touch -t "202403\${day}0200" "$${arch}"
        done`,
      () => sh`
        for day in $(seq -f '%02g' 1 8); do
          ${arch}=$${v.dest}/${p.app}-2024-03-$day.tar.gz
          ${pack.run(`"$${arch}"`)}
          touch --date="2024-03-$day 02:00:00" "$${arch}"
        done`,
      () => sh`
        # Walk the calendar from March 1st to 8th; GNU date does the day arithmetic.
        d=2024-03-01
        while [[ $d < 2024-03-09 ]]; do
          ${arch}="$${v.dest}/${p.app}-$d.tar.gz"
          ${pack.run(`"$${arch}"`)}
          touch -d "$d 02:00" "$${arch}"
          d=$(date -d "$d + 1 day" +%F)
        done`,
    ]);

    const todayVar = rng.pick(["today", "current", "fresh"]);
    const todayArchive = choose(rng, [
      () => sh`
        ${todayVar}="$${v.dest}/${p.app}-$(date -u +%Y-%m-%d).tar.gz"
        ${pack.run(`"$${todayVar}"`)}
        tar -tzf "$${todayVar}" > /dev/null`,
      () => sh`
        stamp=$(date +%F)
        ${todayVar}=$${v.dest}/${p.app}-$stamp.tar.gz
        ${pack.run(`"$${todayVar}"`)}
        gzip -t "$${todayVar}"`,
      () => sh`
        ${todayVar}=$(printf '%s/%s-%s.tar.gz' ${$(v.dest)} ${p.app} "$(date -u +%F)")
        ${pack.run(`"$${todayVar}"`)}
        # The archive must hold the directory itself, not just its files.
        members=$(tar -tzf "$${todayVar}")
        [[ $members == "$${v.name}/"* ]] || { echo "unexpected layout in $${todayVar}" >&2; exit 1; }`,
    ]);

    const mode = choose(rng, [
      () => `chmod 640 "$${v.dest}"/*.tar.gz`,
      () => `find ${$(v.dest)} -maxdepth 1 -name '*.tar.gz' -exec chmod 0640 {} +`,
      () => `chmod u=rw,g=r,o= "$${v.dest}"/${glob}`,
    ]);

    const rotate = choose(rng, [
      () => sh`
        # Keep the newest archives by modification time; index them newest first.
        kept=0
        : > ${I}
        for f in $(ls -1t "$${v.dest}"/${glob}); do
          kept=$((kept + 1))
          if [ "$kept" -gt "$${v.keep}" ]; then
            rm -f "$f"
            continue
          fi
          size=$(stat -c %s "$f")
          digest=$(sha256sum "$f" | cut -d' ' -f1)
          printf '%s %s %s\\n' "\${f##*/}" "$size" "$digest" >> ${I}
        done`,
      () => sh`
        # Newest first by mtime; everything past the first $${v.keep} goes.
        mapfile -t archives < <(find ${$(v.dest)} -maxdepth 1 -name '${glob}' -printf '%T@ %p\\n' | sort -rn | cut -d' ' -f2-)
        for old in "\${archives[@]:$${v.keep}}"; do
          rm -f -- "$old"
        done
        for a in "\${archives[@]:0:$${v.keep}}"; do
          printf '%s %s %s\\n' "$(basename "$a")" "$(stat -c %s "$a")" "$(sha256sum < "$a" | cut -d' ' -f1)"
        done > ${I}`,
      () => sh`
        ls -1t "$${v.dest}"/${glob} | tail -n +$((${v.keep} + 1)) | xargs -r rm -f --
        ls -1t "$${v.dest}"/${glob} | while read -r path; do
          bytes=$(wc -c < "$path")
          sum=$(sha256sum "$path" | awk '{ print $1 }')
          echo "$(basename "$path") $bytes $sum"
        done > ${I}`,
      () => sh`
        # The date is in the name, so a reverse name sort is newest first.
        printf '%s\\n' "$${v.dest}"/${glob} | sort -r | tail -n +$((${v.keep} + 1)) | xargs -r rm -f
        find ${$(v.dest)} -maxdepth 1 -name '${glob}' -printf '%f %s\\n' | sort -r \\
          | while read -r name size; do
              echo "$name $size $(sha256sum < "$${v.dest}/$name" | cut -d' ' -f1)"
            done > ${I}`,
    ]);

    const check = choose(rng, [
      () => sh`
        newest=$(head -n 1 ${I} | cut -d' ' -f1)
        if [ "$newest" != "\${${todayVar}##*/}" ]; then
          echo "newest backup is $newest" >&2
          exit 1
        fi`,
      () => sh`
        listed=$(wc -l < ${I})
        [ "$listed" -eq "$${v.keep}" ] || { echo "index lists $listed archives, expected $${v.keep}" >&2; exit 1; }`,
      () => sh`
        left=$(find ${$(v.dest)} -maxdepth 1 -name '${glob}' | wc -l)
        if [ "$left" -ne "$${v.keep}" ]; then
          echo "$left archives on disk after rotation" >&2
          exit 1
        fi`,
      () => `grep -q "^$(basename "$${todayVar}") " ${I} || { echo "today's archive is missing from the index" >&2; exit 1; }`,
    ]);

    // Each small archive and the INDEX take one 4K block, plus the directory itself.
    const kb = (keep + 2) * 4;
    const summary = rng.shuffle([
      () => {
        printed.push(`${kb}K\t${dest}`);
        return `du -sh ${$(v.dest)}`;
      },
      () => {
        printed.push(`${keep} ${index}`);
        return `wc -l ${I}`;
      },
      () => {
        printed.push(`${keep + 1}`);
        return `ls ${$(v.dest)} | wc -l`;
      },
      () => {
        printed.push(`750 root:root ${dest}`);
        return `stat -c '%a %U:%G %n' ${$(v.dest)}`;
      },
    ]).slice(0, rng.chance(0.3) ? 2 : 1).map((f) => f());
    const done = rng.pick([
      [`echo "kept $${v.keep} backups in $${v.dest}"`, `kept ${keep} backups in ${dest}`],
      [`printf 'rotation done: %s archives kept under %s\\n' "$${v.keep}" ${$(v.dest)}`, `rotation done: ${keep} archives kept under ${dest}`],
      [`echo "backup of $${v.data} finished ($${v.keep} retained)"`, `backup of ${p.dataDir} finished (${keep} retained)`],
    ] as const);
    printed.push(done[1]);

    // Modes can be fixed before the index is written or after; the index does not depend on them.
    const finish = rng.chance(0.5) ? [rotate, mode, check] : [mode, rotate, check];
    const script = join(
      [join([header, split, guard]), join([pack.def, backfill]), todayArchive, join(finish), join([...summary, done[0]])],
      rng.chance(0.6),
    );

    const intro = rng.pick([
      () => [
        `Back up \`${p.dataDir}\` as gzip tarballs named \`${p.app}-YYYY-MM-DD.tar.gz\` in \`${dest}\`. Create archives for 2024-03-01 to 2024-03-08 (mtime 02:00 that day) plus today's, then keep only the newest ${keep} archives (mode 0640).`,
        "",
        `List the kept archives newest first as "<name> <bytes> <sha256>" in \`${index}\`.`,
        "",
        "Leave the notes in place; every archive must contain the data directory itself.",
      ],
      () => [
        `Set up daily backups of \`${p.dataDir}\`: gzip tarballs in \`${dest}\` named \`${p.app}-YYYY-MM-DD.tar.gz\`. Backfill 2024-03-01 through 2024-03-08 (each with mtime 02:00 on its day), add one for today, and prune to the newest ${keep}, each with mode 0640.`,
        "",
        `Write \`${index}\` with one "<name> <bytes> <sha256>" line per kept archive, newest first.`,
        "",
        "Each archive holds the data directory itself; do not remove the notes.",
      ],
      () => [
        `\`${dest}\` should hold gzip tarballs of \`${p.dataDir}\` named \`${p.app}-YYYY-MM-DD.tar.gz\`: one per day from 2024-03-01 to 2024-03-08 (mtime 02:00 that day) and one for today. Rotate so only the ${keep} newest remain, mode 0640.`,
        "",
        `Index the survivors in \`${index}\`, newest first, as "<name> <bytes> <sha256>".`,
        "",
        "The notes stay where they are, and each archive contains the data directory itself.",
      ],
    ])().join("\n");

    return {
      title: `Rotate ${p.app} daily backups`,
      intro,
      packages: [],
      fixtures: [{ src: "notes.txt", dest: notes, content: notesText }],
      script,
      output: printed,
      tests: [
        fixtureIntact(notes, lineCount(notesText)),
        test("test_backup_count", `Exactly ${keep} archives are kept.`, 0, [
          new Part(dest).isDir().raw([`archives = sorted(p.glob(${JSON.stringify(glob)}))`, `assert len(archives) == ${keep}`], 1, [`AssertionError: assert 0 == ${keep}`]).build(),
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
