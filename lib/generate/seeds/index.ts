// Seed families: a template, a profile and a fixed random stream make one seed task.
import { breakPipelines } from "../format-shell";
import type { Rng } from "../prng";
import type { Artifact, Family, Step, TaskContent, TestCase } from "../types";
import { backupRotation } from "./backup-rotation";
import { cBuildFix } from "./c-build-fix";
import { makeProfile } from "./data";
import { eventNormalize } from "./event-normalize";
import { logMetrics } from "./log-metrics";
import { nginxLogTriage } from "./nginx-log-triage";
import { portAudit } from "./port-audit";
import { pythonBugfix } from "./python-bugfix";
import { salesRollup } from "./sales-rollup";
import { secretsScan } from "./secrets-scan";
import type { SeedTemplate } from "./spec";
import { sqliteInventory } from "./sqlite-inventory";
import { sshHardening } from "./ssh-hardening";
import { staticSite } from "./static-site";
import { userProvisioning } from "./user-provisioning";

export const SEED_TEMPLATES: readonly SeedTemplate[] = [
  nginxLogTriage,
  userProvisioning,
  salesRollup,
  eventNormalize,
  logMetrics,
  cBuildFix,
  pythonBugfix,
  sshHardening,
  secretsScan,
  staticSite,
  portAudit,
  sqliteInventory,
  backupRotation,
];

export interface Seed {
  family: Family;
  content: TaskContent;
}

/** Builds seed number `index`; templates rotate so every category is represented early. */
export function buildSeed(rng: Rng, index: number, seedId: string, testSh: (ctrf: boolean) => string): Seed {
  const template = SEED_TEMPLATES[index % SEED_TEMPLATES.length] ?? nginxLogTriage;
  const base = makeProfile(rng);
  const profile = { ...base, ...(template.profile?.(base) ?? {}) };
  const spec = template.build(rng, profile);
  const family: Family = {
    seedId,
    template: template.id,
    title: spec.title,
    category: template.category,
    difficulty: template.difficulty,
    tags: spec.tags,
    image: template.image,
    intro: spec.intro,
    fixtures: spec.fixtures,
    profile: { ...profile, inputs: spec.inputs },
    ctrf: rng.chance(0.7),
    // Heavy-tailed: a few seeds are far more productive parents than the rest.
    productivity: Math.exp(rng.normal() * 0.9),
    expertMinutes: rng.pick([10, 15, 20, 30, 45]),
    juniorMinutes: rng.pick([30, 45, 60, 90, 120]),
    verifierTimeout: rng.pick([180, 300, 600]),
    agentTimeout: rng.pick([900, 1800, 3600]),
    cpus: rng.pick([1, 1, 2]),
    memoryMb: rng.pick([2048, 4096]),
  };
  const steps: Step[] = [{ op: "seed", text: breakPipelines(spec.script), output: spec.output }];
  const tests: TestCase[] = spec.tests;
  const artifacts: Artifact[] = [...spec.inputs, ...spec.artifacts];
  const content: TaskContent = {
    family,
    round: 0,
    requirements: [],
    packages: spec.packages,
    steps,
    tests,
    testSh: testSh(family.ctrf),
    artifacts,
    opsUsed: [],
    tags: spec.tags,
  };
  return { family, content };
}
