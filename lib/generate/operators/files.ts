// File and permission operators: modes and ACLs, inventories, release layouts, mirrors.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { anyOf, baseOf, free, latest, opResult, sh, snake, stemOf } from "./common";

const MODES = [0o600, 0o640, 0o440] as const;

export const hardenPermissions: Operator = {
  id: "harden-permissions",
  theme: "files",
  extendsExisting: true,
  applies: (c) => anyOf(c, ["csv", "json", "file", "config", "db"]) !== null,
  build(c) {
    const target = anyOf(c, ["csv", "json", "file", "config", "db"]);
    const path = target?.path ?? `${c.profile.reportDir}/summary.txt`;
    const mode = c.rng.pick(MODES);
    const octal = mode.toString(8);
    const step = sh`
      # Least privilege: the artifact is readable by root and the adm group only.
      TARGET=${path}
      test -e "$TARGET"
      chown root:adm "$TARGET"
      chmod ${octal} "$TARGET"
      find "$(dirname "$TARGET")" -maxdepth 1 -type f -perm /o+w -print0 | xargs -0 -r chmod o-w
      setfacl -b "$TARGET"
      getfacl --omit-header --absolute-names "$TARGET" | grep -q '^other::---'
      owner=$(stat -c '%U:%G' "$TARGET")
      perms=$(stat -c '%a' "$TARGET")
      case "$perms" in
        ${octal})
          ;;
        *)
          echo "unexpected mode $perms on $TARGET" >&2
          exit 1
          ;;
      esac
      ls -l "$TARGET"
      echo "$TARGET is $owner mode $perms"`;
    return opResult(this.id, {
      step,
      output: [`-rw-r----- 1 root adm ${c.rng.int(200, 90000)} Jan  1 00:00 ${path}`, `${path} is root:adm mode ${octal}`],
      primary: { path, kind: target?.kind ?? "file" },
      primaryIsNew: false,
      testName: `test_${snake(stemOf(path))}_permissions`,
      testDoc: `${baseOf(path)} is owned by root:adm with mode ${octal}.`,
      primaryPart: new Part(path).isFile().mode(mode).raw(
        [`assert grp.getgrgid(p.stat().st_gid).gr_name == "adm"`],
        1,
        [`AssertionError: assert 'root' == 'adm'`],
      ).build(true),
      need: `Restrict \`${path}\` to owner root, group adm, mode ${octal}, with no extra ACL entries.`,
      label: "restricted mode",
      packages: ["acl"],
    });
  },
};

export const snapshotInventory: Operator = {
  id: "snapshot-inventory",
  theme: "files",
  applies: (c) => free(c, `${c.profile.reportDir}/inventory.tsv`),
  build(c) {
    const { root, reportDir } = c.profile;
    const inv = `${reportDir}/inventory.tsv`;
    const totals = `${reportDir}/inventory-totals.txt`;
    const step = sh`
      # Inventory every file under the root with size, mode and digest for drift detection.
      INVENTORY=${inv}
      mkdir -p ${reportDir}
      printf 'path\\tbytes\\tmode\\tsha1\\n' > "$INVENTORY"
      find ${root} -xdev -type f ! -path '*/.git/*' ! -name 'inventory*' -printf '%p\\t%s\\t%m\\n' \\
        | sort -t $'\\t' -k1,1 \\
        | while IFS=$'\\t' read -r path bytes mode; do
            digest=$(sha1sum "$path" | cut -d' ' -f1)
            printf '%s\\t%s\\t%s\\t%s\\n' "$path" "$bytes" "$mode" "$digest"
          done >> "$INVENTORY"
      files=$(tail -n +2 "$INVENTORY" | wc -l)
      bytes=$(awk -F'\\t' 'NR > 1 { s += $2 } END { print s + 0 }' "$INVENTORY")
      largest=$(tail -n +2 "$INVENTORY" | sort -t $'\\t' -k2,2nr | head -n 1 | cut -f1)
      cat > ${totals} <<EOF
      files=$files
      bytes=$bytes
      largest=$largest
      generated=$(date -u +%FT%TZ)
      EOF`;
    return opResult(this.id, {
      step,
      output: [`${c.rng.int(1, 90)}M\t${root}`],
      primary: { path: inv, kind: "file" },
      secondary: { path: totals, kind: "file" },
      testName: "test_file_inventory",
      testDoc: "The inventory lists every file with size, mode and SHA-1.",
      primaryPart: new Part(inv).isFile().raw(
        [`rows = [line.split("\\t") for line in p.read_text().splitlines()]`, `assert rows[0] == ["path", "bytes", "mode", "sha1"]`, `assert all(len(r[3]) == 40 for r in rows[1:])`],
        2,
        ["AssertionError: assert ['path'] == ['path', 'bytes', 'mode', 'sha1']"],
      ).build(),
      secondaryPart: new Part(totals, "totals").isFile().contains("files=", "bytes=", "largest=").build(),
      need: `Write a tab-separated inventory of every file under ${root} (path, bytes, mode, sha1) to \`${inv}\`.`,
      needSecondary: `Summarise file count, total bytes and the largest file in \`${totals}\`.`,
      label: "file inventory",
    });
  },
};

export const releaseSymlinkLayout: Operator = {
  id: "release-symlink-layout",
  theme: "files",
  applies: (c) => free(c, `${c.profile.root}/current`),
  build(c) {
    const { root, reportDir, app } = c.profile;
    const version = `${c.rng.int(1, 3)}.${c.rng.int(0, 12)}.${c.rng.int(0, 9)}`;
    const release = `${root}/releases/${version}`;
    const current = `${root}/current`;
    const step = sh`
      # Capistrano-style layout: immutable release directory, atomic "current" symlink.
      RELEASE=${release}
      for sub in "" bin reports; do
        install -d -m 755 "$RELEASE/$sub"
      done
      cp -a ${reportDir}/. "$RELEASE/reports/"
      install -m 755 /dev/null "$RELEASE/bin/${app}-info"
      printf '#!/bin/sh\\necho "${app} ${version}"\\n' > "$RELEASE/bin/${app}-info"
      echo "${version}" > "$RELEASE/VERSION"
      ln -sfnT "$RELEASE" ${current}
      resolved=$(readlink -f ${current})
      expected=$(realpath "$RELEASE")
      if [ "$resolved" != "$expected" ]; then
        echo "current points to $resolved" >&2
        exit 1
      fi
      "${current}/bin/${app}-info"
      ls -1 ${root}/releases | sort -V | tail -n 3
      echo "activated release ${version}"`;
    return opResult(this.id, {
      step,
      output: [`${app} ${version}`, version, `activated release ${version}`],
      primary: { path: current, kind: "dir" },
      secondary: { path: `${release}/VERSION`, kind: "file" },
      testName: "test_current_release",
      testDoc: "current is a symlink to the versioned release directory.",
      primaryPart: new Part(current).raw(
        [
          `assert p.is_symlink()`,
          `assert os.path.realpath(p) == ${JSON.stringify(release)}`,
          `assert os.access(${JSON.stringify(`${release}/bin/${app}-info`)}, os.X_OK)`,
          `assert any(Path(${JSON.stringify(`${release}/reports`)}).iterdir())`,
        ],
        4,
        [`AssertionError: assert False`, ` +  where False = is_symlink()`, ` +    where is_symlink = PosixPath('${current}').is_symlink`],
      ).build(),
      secondaryPart: new Part(`${release}/VERSION`, "ver").isFile().contains(version).build(),
      need: `Lay out release ${version} in ${release} (reports copied to ${release}/reports, an executable ${release}/bin/${app}-info) and point the symlink \`${current}\` at it.`,
      needSecondary: `The release carries its version in \`${release}/VERSION\`.`,
      label: "release symlink",
    });
  },
};

export const rsyncMirror: Operator = {
  id: "rsync-mirror",
  theme: "files",
  applies: (c) => free(c, `/var/backups/${c.profile.app}/mirror`),
  build(c) {
    const { app, dataDir } = c.profile;
    const mirror = `/var/backups/${app}/mirror`;
    const log = `/var/backups/${app}/rsync.log`;
    const step = sh`
      # Mirror the data directory with rsync; --delete keeps the copy exact.
      MIRROR=${mirror}
      mkdir -p "$MIRROR"
      rsync -a --delete --checksum --itemize-changes \\
        --log-file=${log} ${dataDir}/ "$MIRROR/"
      if ! diff -rq ${dataDir} "$MIRROR" > /dev/null; then
        echo "mirror differs from ${dataDir}" >&2
        diff -rq ${dataDir} "$MIRROR" | head -n 5 >&2
        exit 1
      fi
      src_count=$(find ${dataDir} -type f | wc -l)
      dst_count=$(find "$MIRROR" -type f | wc -l)
      if [ "$src_count" -ne "$dst_count" ]; then
        echo "mirror has $dst_count files, source $src_count" >&2
        exit 1
      fi
      touch -r ${dataDir} "$MIRROR"
      chmod -R go-w "$MIRROR"
      tail -n 2 ${log}`;
    return opResult(this.id, {
      step,
      output: [`sent ${c.rng.int(900, 90000)} bytes  received ${c.rng.int(30, 900)} bytes`],
      primary: { path: mirror, kind: "dir", pins: [dataDir, mirror] },
      secondary: { path: log, kind: "log" },
      testName: "test_rsync_mirror",
      testDoc: "The mirror matches the data directory exactly.",
      primaryPart: new Part(mirror).isDir().run(["diff", "-rq", dataDir, mirror]).build(),
      secondaryPart: new Part(log, "log").isFile().contains("rsync").build(),
      need: `Mirror ${dataDir} to \`${mirror}\` with rsync so \`diff -r\` finds no difference.`,
      needSecondary: `Keep rsync's log in \`${log}\`.`,
      label: "rsync mirror",
      packages: ["rsync"],
    });
  },
};

export { latest };
