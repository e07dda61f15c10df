// Archive and compression operators: tar/gzip, zip, xz, split, zstd.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { baseOf, dirOf, free, latest, opResult, sh } from "./common";

export const archiveWithChecksums: Operator = {
  id: "archive-with-checksums",
  theme: "archives",
  applies: (c) => free(c, `${c.profile.root}/backup/${c.profile.app}-data.tar.gz`),
  build(c) {
    const { app, root, dataDir } = c.profile;
    const archive = `${root}/backup/${app}-data.tar.gz`;
    const sums = `${root}/backup/SHA256SUMS`;
    const level = c.rng.pick([6, 9]);
    const step = sh`
      # Reproducible archive of the data directory plus a checksum list for restores.
      BACKUP_DIR=${root}/backup
      ARCHIVE=${archive}
      mkdir -p "$BACKUP_DIR"
      chmod 750 "$BACKUP_DIR"
      tar --sort=name --owner=0 --group=0 --numeric-owner \\
        --mtime='2024-01-01 00:00Z' -cf - -C ${dirOf(dataDir)} ${baseOf(dataDir)} \\
        | gzip -n -${level} > "$ARCHIVE"
      gzip -t "$ARCHIVE"
      members=$(tar -tzf "$ARCHIVE" | grep -vc '/$')
      if [ "$members" -lt 1 ]; then
        echo "archive $ARCHIVE has no files" >&2
        exit 1
      fi
      (cd "$BACKUP_DIR" && sha256sum "\${ARCHIVE##*/}" > ${sums} && sha256sum -c ${sums})
      size=$(du -k "$ARCHIVE" | cut -f1)
      chmod 640 "$ARCHIVE" ${sums}
      # Anything under 1 KiB usually means the source directory was empty.
      case "$size" in
        0|1) note="suspiciously small" ;;
        *) note="ok" ;;
      esac`;
    return opResult(this.id, {
      step,
      output: [`${baseOf(archive)}: OK`],
      primary: { path: archive, kind: "archive" },
      secondary: { path: sums, kind: "file" },
      testName: "test_data_archive",
      testDoc: "The data directory is archived as a valid gzip tarball.",
      primaryPart: new Part(archive).isFile().run(["tar", "-tzf", archive], `${baseOf(dataDir)}/`).mode(0o640).build(),
      secondaryPart: new Part(sums, "sums").isFile().contains(baseOf(archive)).build(),
      need: `Archive ${dataDir} into \`${archive}\` (gzip, mode 0640).`,
      needSecondary: `Record its SHA-256 in \`${sums}\`.`,
      label: "data archive",
    });
  },
};

export const zipReleaseBundle: Operator = {
  id: "zip-release-bundle",
  theme: "archives",
  applies: (c) => latest(c, ["csv", "json", "file", "log"]) !== null && free(c, `${c.profile.root}/dist/${c.profile.app}-reports.zip`),
  build(c) {
    const { app, root, reportDir } = c.profile;
    const bundle = `${root}/dist/${app}-reports.zip`;
    const md5 = `${root}/dist/${app}-reports.md5`;
    const step = sh`
      # Ship the reports as one zip with a manifest, as downstream tooling expects.
      DIST=${root}/dist
      BUNDLE=${bundle}
      mkdir -p "$DIST"
      rm -f "$BUNDLE"
      count=$(find ${reportDir} -maxdepth 1 -type f | wc -l)
      if [ "$count" -eq 0 ]; then
        echo "no reports to bundle" >&2
        exit 1
      fi
      cd ${reportDir}
      find . -maxdepth 1 -type f -printf '%f\\n' | sort | zip -q -X -9 "$BUNDLE" -@
      cd - > /dev/null
      unzip -tq "$BUNDLE"
      md5sum "$BUNDLE" | awk '{print $1}' > ${md5}
      digest=$(cat ${md5})
      if [ \${#digest} -ne 32 ]; then
        echo "bad digest for $BUNDLE" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`No errors detected in compressed data of ${bundle}.`],
      primary: { path: bundle, kind: "archive" },
      secondary: { path: md5, kind: "file" },
      testName: "test_reports_bundle",
      testDoc: "Reports are bundled into a valid zip archive.",
      primaryPart: new Part(bundle).isFile().run(["unzip", "-tq", bundle]).build(),
      secondaryPart: new Part(md5, "digest").isFile().matches("^[0-9a-f]{32}$", "md5 digest").build(),
      need: `Bundle every file in ${reportDir} into \`${bundle}\`; \`unzip -t\` must succeed.`,
      needSecondary: `Write the bundle's MD5 digest to \`${md5}\`.`,
      label: "reports bundle",
      packages: ["zip", "unzip"],
    });
  },
};

export const xzCompressLogs: Operator = {
  id: "xz-compress-logs",
  theme: "archives",
  applies: (c) => latest(c, ["log", "csv", "file"]) !== null && free(c, `${c.profile.logDir}/archive/${c.profile.app}.log.xz`),
  build(c) {
    const { app, logDir } = c.profile;
    const source = latest(c, ["log", "csv", "file"])?.path ?? `${logDir}/${app}.log`;
    const xzFile = `${logDir}/archive/${app}.log.xz`;
    const index = `${logDir}/archive/INDEX`;
    const step = sh`
      # Compress a copy of the log with xz and prove the round trip is lossless.
      ARCHIVE_DIR=${logDir}/archive
      SRC=${source}
      mkdir -p "$ARCHIVE_DIR"
      test -r "$SRC"
      xz -T1 -9e -c "$SRC" > ${xzFile}
      xz -t ${xzFile}
      if ! xzcat ${xzFile} | cmp -s - "$SRC"; then
        echo "xz round trip differs from $SRC" >&2
        exit 1
      fi
      orig=$(stat -c %s "$SRC")
      packed=$(stat -c %s ${xzFile})
      ratio=$(awk -v a="$orig" -v b="$packed" 'BEGIN { if (a == 0) print "0.00"; else printf "%.2f", b / a }')
      name=$(basename "$SRC")
      cat > ${index} <<EOF
      $name\t$orig\t$packed\t$ratio
      EOF
      xz -l ${xzFile} | tail -n 1
      find "$ARCHIVE_DIR" -name '*.xz' -mtime +30 -delete`;
    return opResult(this.id, {
      step,
      output: [`    1       1     ${c.rng.int(1, 90)}.${c.rng.int(0, 9)} KiB    ${c.rng.int(100, 900)}.0 KiB  0.${c.rng.int(10, 30)}  CRC64   ${xzFile}`],
      primary: { path: xzFile, kind: "archive" },
      secondary: { path: index, kind: "file" },
      testName: "test_xz_log_archive",
      testDoc: "The log copy is xz-compressed and decompresses cleanly.",
      primaryPart: new Part(xzFile).isFile().run(["xz", "-t", xzFile]).build(),
      secondaryPart: new Part(index, "idx").isFile().contains(baseOf(source)).build(),
      need: `Compress ${source} with xz into \`${xzFile}\` (lossless, \`xz -t\` passes).`,
      needSecondary: `List name, original size, compressed size and ratio, tab-separated, in \`${index}\`.`,
      label: "xz log archive",
      packages: ["xz-utils"],
    });
  },
};

export const splitLargeExport: Operator = {
  id: "split-large-export",
  theme: "archives",
  applies: (c) => latest(c, ["csv", "log", "json", "db"]) !== null && free(c, `${c.profile.root}/export/parts`),
  build(c) {
    const { root } = c.profile;
    const src = latest(c, ["csv", "log", "json", "db"])?.path ?? `${root}/data`;
    const parts = `${root}/export/parts`;
    const sums = `${root}/export/parts.b2sums`;
    const size = c.rng.pick(["4k", "8k", "16k"]);
    const step = sh`
      # Transfer limits upstream: split the export into fixed-size parts with checksums.
      PARTS=${parts}
      rm -rf "$PARTS"
      mkdir -p "$PARTS"
      split -b ${size} -d -a 3 --additional-suffix=.part ${src} "$PARTS/${baseOf(src)}."
      cat "$PARTS"/*.part | cmp - ${src}
      (cd "$PARTS" && b2sum -- *.part) > ${sums}
      cksum ${src} | awk '{print $1, $2}' >> ${sums}
      nparts=0
      for part in "$PARTS"/*.part; do
        [ -s "$part" ] || continue
        nparts=$((nparts + 1))
      done
      if [ "$nparts" -lt 1 ]; then
        echo "split produced nothing" >&2
        exit 1
      fi
      b2sum --check --quiet <(head -n "$nparts" ${sums} | sed "s|  |  $PARTS/|")`;
    return opResult(this.id, {
      step,
      output: [],
      primary: { path: parts, kind: "dir" },
      secondary: { path: sums, kind: "file" },
      testName: "test_export_parts",
      testDoc: "The export is split into numbered parts that reassemble to the source.",
      primaryPart: new Part(parts).isDir().raw(
        [`chunks = sorted(p.glob("*.part"))`, `assert chunks`, `assert b"".join(c.read_bytes() for c in chunks) == Path(${JSON.stringify(src)}).read_bytes()`],
        2,
        ["AssertionError: assert []"],
      ).build(),
      secondaryPart: new Part(sums, "sums").isFile().minLines(2).build(),
      need: `Split ${src} into ${size} parts under \`${parts}\` that concatenate back to the original.`,
      needSecondary: `Store BLAKE2 checksums of the parts and the cksum of the source in \`${sums}\`.`,
      label: "split export",
    });
  },
};

export const zstdSnapshot: Operator = {
  id: "zstd-snapshot",
  theme: "archives",
  applies: (c) => free(c, `${c.profile.root}/snapshots/${c.profile.app}.tar.zst`),
  build(c) {
    const { app, root, reportDir } = c.profile;
    const snap = `${root}/snapshots/${app}.tar.zst`;
    const meta = `${root}/snapshots/${app}.meta`;
    const step = sh`
      # Fast zstd snapshot of the reports for the nightly sync.
      SNAP_DIR=${root}/snapshots
      mkdir -p "$SNAP_DIR" ${reportDir}
      tar -C ${dirOf(reportDir)} -cf - ${baseOf(reportDir)} | zstd -q -19 -o ${snap} -f
      zstd -t -q ${snap}
      entries=$(zstd -dc ${snap} | tar -tf - | wc -l)
      bytes=$(stat -c %s ${snap})
      human=$(numfmt --to=iec --suffix=B "$bytes")
      created=$(date -u +%Y-%m-%dT%H:%M:%SZ)
      cat > ${meta} <<EOF
      snapshot=${snap}
      entries=$entries
      bytes=$bytes
      human=$human
      created=$created
      EOF
      grep -q '^entries=[1-9]' ${meta} || { echo "empty snapshot" >&2; exit 1; }
      echo "snapshot ${snap}: $entries entries, $human"`;
    return opResult(this.id, {
      step,
      output: [`snapshot ${snap}: ${c.rng.int(2, 12)} entries, ${c.rng.int(1, 40)}KB`],
      primary: { path: snap, kind: "archive" },
      secondary: { path: meta, kind: "config" },
      testName: "test_zstd_snapshot",
      testDoc: "The reports snapshot is a valid zstd-compressed tarball.",
      primaryPart: new Part(snap).isFile().run(["zstd", "-t", "-q", snap]).build(),
      secondaryPart: new Part(meta, "meta").isFile().contains("entries=", "bytes=", "created=").build(),
      need: `Snapshot ${reportDir} as a zstd-compressed tar at \`${snap}\`.`,
      needSecondary: `Describe it in \`${meta}\` with snapshot, entries, bytes and created keys.`,
      label: "zstd snapshot",
      packages: ["zstd"],
    });
  },
};
