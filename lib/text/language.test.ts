import { describe, expect, it } from "vitest";
import { languageForPath, languageLabel } from "./language";

describe("languageForPath", () => {
  it("maps task files by name and extension", () => {
    expect(languageForPath("solution/solve.sh")).toBe("bash");
    expect(languageForPath("tests/test_outputs.py")).toBe("python");
    expect(languageForPath("environment/Dockerfile")).toBe("docker");
    expect(languageForPath("environment/app.Dockerfile")).toBe("docker");
    expect(languageForPath("task.toml")).toBe("toml");
    expect(languageForPath("instruction.md")).toBe("markdown");
    expect(languageForPath("data/config.JSON")).toBe("json");
    expect(languageForPath("docker-compose.yml")).toBe("yaml");
  });

  it("falls back to the shebang for files without an extension", () => {
    expect(languageForPath("bin/run", "#!/usr/bin/env bash")).toBe("bash");
    expect(languageForPath("bin/run", "#!/bin/sh -e")).toBe("bash");
    expect(languageForPath("bin/tool", "#!/usr/bin/env python3")).toBe("python");
    expect(languageForPath("notes.txt", "#!/bin/bash")).toBe("bash");
  });

  it("returns null for unknown files", () => {
    expect(languageForPath("data/input.csv")).toBeNull();
    expect(languageForPath(".bashrc")).toBeNull();
    expect(languageLabel(null)).toBe("Plain text");
  });
});
