// The shape of a seed template and helpers its authors share.
import type { Rng } from "../prng";
import { Part, test } from "../pytest-parts";
import type { Artifact, Fixture, Profile, TestCase } from "../types";

export interface SeedSpec {
  title: string;
  /** instruction.md body (after the title), naming every path the tests check. */
  intro: string;
  packages: string[];
  fixtures: Fixture[];
  /** Extra Dockerfile lines after the COPY lines (e.g. unpacking a fixture). */
  dockerRun?: string[];
  script: string;
  output: string[];
  tests: TestCase[];
  /** Outputs of the seed solution. */
  artifacts: Artifact[];
  /** Inputs the environment ships. */
  inputs: Artifact[];
  tags: string[];
}

export interface SeedTemplate {
  id: string;
  category: string;
  image: "ubuntu:24.04" | "python:3.12-slim";
  difficulty: "easy" | "medium";
  /** Profile fields the template fixes (e.g. where its inputs live). */
  profile?: (p: Profile) => Partial<Profile>;
  build(rng: Rng, p: Profile): SeedSpec;
}

/** The check a no-op agent passes: the shipped input is still there and unmodified in size. */
export function fixtureIntact(path: string, lines: number): TestCase {
  return test(
    "test_input_fixture_intact",
    "The shipped input is still present and was not truncated.",
    0,
    [new Part(path).isFile().raw([`assert len(p.read_text().splitlines()) == ${lines}`], 1, [`AssertionError: assert 0 == ${lines}`]).build()],
    true,
  );
}

export const lineCount = (text: string): number => text.split("\n").filter((l) => l !== "").length;

export { Part, test };
