// The operator library and how a child picks one.
import type { Rng } from "../prng";
import type { OpContext, Operator } from "../types";
import { archiveWithChecksums, splitLargeExport, xzCompressLogs, zipReleaseBundle, zstdSnapshot } from "./archives";
import { buildCTool, lintShellScripts, pythonStats } from "./build";
import { sqliteDumpBackup, sqliteImportCsv, sqliteIndexView, sqliteSchemaMigration } from "./databases";
import { hardenPermissions, releaseSymlinkLayout, rsyncMirror, snapshotInventory } from "./files";
import { curlHealthProbe, hostsAlias, listeningPorts } from "./network";
import { addErrorHandling, parameterizeRoot, wrapInFunction } from "./refactor";
import { basicAuth, selfSignedCert, signedManifest, sshDeployKey } from "./security";
import { envTemplate, firewallRules, nginxReportSite, supervisorProgram } from "./services";
import { csvToJsonl, jqSummary, stampJsonMetadata, xmlReport, yamlConfigExport } from "./structured";
import { addCronJob, logrotateConfig, serviceAccount, sudoersDropIn, systemdUnit } from "./system";
import { awkStatusReport, columnFormatSummary, datamashGroupStats, joinOwnerLookup, normalizeEncoding } from "./text";
import { gitTrackConfig, patchConfig } from "./vcs";

export const OPERATORS: readonly Operator[] = [
  archiveWithChecksums,
  zipReleaseBundle,
  xzCompressLogs,
  splitLargeExport,
  zstdSnapshot,
  hardenPermissions,
  snapshotInventory,
  releaseSymlinkLayout,
  rsyncMirror,
  awkStatusReport,
  joinOwnerLookup,
  columnFormatSummary,
  normalizeEncoding,
  datamashGroupStats,
  jqSummary,
  yamlConfigExport,
  stampJsonMetadata,
  csvToJsonl,
  xmlReport,
  sqliteImportCsv,
  sqliteIndexView,
  sqliteDumpBackup,
  sqliteSchemaMigration,
  gitTrackConfig,
  patchConfig,
  addCronJob,
  serviceAccount,
  logrotateConfig,
  systemdUnit,
  sudoersDropIn,
  nginxReportSite,
  supervisorProgram,
  firewallRules,
  envTemplate,
  selfSignedCert,
  sshDeployKey,
  basicAuth,
  signedManifest,
  curlHealthProbe,
  listeningPorts,
  hostsAlias,
  buildCTool,
  lintShellScripts,
  pythonStats,
  wrapInFunction,
  addErrorHandling,
  parameterizeRoot,
];

/** Refactors are rarer than extensions in RST runs; most rounds add new work. */
const THEME_WEIGHT: Record<string, number> = { refactor: 0.45 };

/**
 * The synthesizer favours rewrites that pull in more of the toolbox (difficulty-seeking), and
 * picks thin single-tool rewrites less often.
 */
const RICH = ["service-account", "patch-config", "build-c-tool", "curl-health-probe", "lint-shell-scripts", "column-format-summary", "join-owner-lookup", "split-large-export", "signed-manifest", "release-symlink-layout", "normalize-encoding", "add-cron-job", "basic-auth", "harden-permissions"];
const THIN = ["python-stats", "csv-to-jsonl", "git-track-config", "jq-summary", "sqlite-index-view", "sqlite-schema-migration", "awk-status-report", "yaml-config-export", "xml-report", "firewall-rules", "logrotate-config", "self-signed-cert", "hosts-alias"];

function weightOf(op: Operator): number {
  const base = op.weight ?? (RICH.includes(op.id) ? 1.6 : THIN.includes(op.id) ? 0.6 : 1);
  return base * (THEME_WEIGHT[op.theme] ?? 1);
}

/**
 * Picks an operator the lineage has not used yet and that applies to the parent; falls back to
 * used ones only when the library is exhausted. `accept` narrows the choice further (defects).
 */
export function pickOperator(rng: Rng, c: OpContext, used: readonly string[], accept: (op: Operator) => boolean = () => true): Operator | null {
  for (const allowUsed of [false, true]) {
    const pool = OPERATORS.filter((op) => (allowUsed || !used.includes(op.id)) && accept(op) && op.applies(c));
    if (pool.length === 0) continue;
    let total = 0;
    for (const op of pool) total += weightOf(op);
    let target = rng.next() * total;
    for (const op of pool) {
      target -= weightOf(op);
      if (target < 0) return op;
    }
    return pool[pool.length - 1] ?? null;
  }
  return null;
}
