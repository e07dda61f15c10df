// Version-control operators: tracking config in git, diff/patch based config changes.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { baseOf, free, latest, opResult, sh } from "./common";

export const gitTrackConfig: Operator = {
  id: "git-track-config",
  theme: "vcs",
  applies: (c) => free(c, `${c.profile.root}/.git`),
  build(c) {
    const { root, app } = c.profile;
    const repo = `${root}/.git`;
    const changelog = `${root}/CHANGELOG.md`;
    const tag = `v${c.rng.int(0, 2)}.${c.rng.int(1, 9)}.0`;
    const step = sh`
      # Put the working tree under git so every later change is reviewable; tag the baseline.
      cd ${root}
      git init -q -b main
      git config user.name "${app} automation"
      git config user.email "ops@${app}.internal"
      printf '%s\\n' '*.sqlite' '*.tar.gz' '*.zip' 'snapshots/' > .gitignore
      printf '# Changelog\\n\\n## ${tag}\\n\\n- Baseline of ${app} generated outputs.\\n' > ${changelog}
      git add -A
      git commit -q -m "Baseline ${app} layout"
      git tag -a ${tag} -m "Baseline ${tag}"
      tracked=$(git ls-files | wc -l)
      git log --oneline --decorate -n 1
      if [ -n "$(git status --porcelain)" ]; then
        echo "working tree not clean after commit" >&2
        exit 1
      fi
      tree -L 1 --noreport -a -I .git ${root} | head -n 12
      cd - > /dev/null`;
    return opResult(this.id, {
      step,
      output: [`${c.rng.hex(7)} (HEAD -> main, tag: ${tag}) Baseline ${app} layout`, tag],
      primary: { path: repo, kind: "repo" },
      secondary: { path: changelog, kind: "file" },
      testName: "test_git_baseline",
      testDoc: `The root is a clean git repository tagged ${tag}.`,
      primaryPart: new Part(repo).isDir()
        .run(["git", "-C", root, "tag", "--list"], tag)
        .run(["git", "-C", root, "status", "--porcelain"])
        .raw([`assert ".gitignore" in subprocess.run(["git", "-C", ${JSON.stringify(root)}, "ls-files"], capture_output=True, text=True).stdout`], 1, ["AssertionError"])
        .build(),
      secondaryPart: new Part(changelog, "log").isFile().contains(`## ${tag}`).build(),
      need: `Initialise git in ${root} (branch main, \`${repo}\`), ignore build outputs, commit everything and tag it ${tag}.`,
      needSecondary: `Start \`${changelog}\` with a ${tag} section.`,
      label: "git baseline",
      packages: ["git", "tree"],
    });
  },
};

export const patchConfig: Operator = {
  id: "patch-config",
  theme: "vcs",
  applies: (c) => latest(c, ["config", "yaml"]) !== null && free(c, `${c.profile.root}/patches/0001-tune.patch`),
  build(c) {
    const target = latest(c, ["config", "yaml"])?.path ?? `${c.profile.root}/config/app.conf`;
    const patch = `${c.profile.root}/patches/0001-tune.patch`;
    const marker = `# tuned-by: ${c.profile.app}-ops`;
    const step = sh`
      # Config changes go through a reviewable patch, applied with patch(1).
      TARGET=${target}
      PATCH=${patch}
      mkdir -p "$(dirname "$PATCH")"
      work=$(mktemp -d)
      cp "$TARGET" "$work/a"
      cp "$TARGET" "$work/b"
      sed -i '1i ${marker}' "$work/b"
      diff -u --label a/${baseOf(target)} --label b/${baseOf(target)} "$work/a" "$work/b" > "$PATCH" || [ $? -eq 1 ]
      rm -rf "$work"
      patch --dry-run -p1 -d "$(dirname "$TARGET")" < "$PATCH"
      patch -p1 -d "$(dirname "$TARGET")" < "$PATCH"
      first=$(head -n 1 "$TARGET")
      if [ "$first" != '${marker}' ]; then
        echo "patch did not apply cleanly to $TARGET" >&2
        exit 1
      fi
      diffstat "$PATCH"`;
    return opResult(this.id, {
      step,
      output: [`checking file ${baseOf(target)}`, `patching file ${baseOf(target)}`],
      primary: { path: patch, kind: "file" },
      secondary: { path: target, kind: "config" },
      testName: "test_config_patch",
      testDoc: "The tuning patch exists as a unified diff and is applied.",
      primaryPart: new Part(patch).isFile().contains(`--- a/${baseOf(target)}`, `+${marker}`).build(),
      secondaryPart: new Part(target, "cfg").isFile().raw([`assert cfg.read_text().splitlines()[0] == ${JSON.stringify(marker)}`], 1, [`AssertionError: assert '' == '${marker}'`]).build(),
      need: `Record a unified diff that adds the header "${marker}" in \`${patch}\`.`,
      needSecondary: `Apply it to \`${target}\` with patch(1).`,
      label: "config patch",
      packages: ["patch", "diffstat"],
    });
  },
};
