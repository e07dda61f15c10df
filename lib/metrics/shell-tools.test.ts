import { describe, expect, it } from "vitest";
import { toolsOfCommand } from "./shell-tools";

describe("toolsOfCommand", () => {
  it("skips the options of a wrapper, including ones that take a value", () => {
    expect(toolsOfCommand(["sudo", "-Eu", "www-data", "php", "x"])).toEqual(["sudo", "php"]);
    expect(toolsOfCommand(["sudo", "--user=root", "--", "apt-get", "update"])).toEqual(["sudo", "apt-get"]);
    expect(toolsOfCommand(["xargs", "-0", "-P", "4", "-n1", "gzip"])).toEqual(["xargs", "gzip"]);
    expect(toolsOfCommand(["xargs", "--max-args", "2", "--null", "tar", "cf"])).toEqual(["xargs", "tar"]);
    expect(toolsOfCommand(["timeout", "--kill-after=5", "10", "make"])).toEqual(["timeout", "make"]);
    expect(toolsOfCommand(["nice", "-10", "bzip2"])).toEqual(["nice", "bzip2"]);
    expect(toolsOfCommand(["time", "-p", "python3", "a.py"])).toEqual(["time", "python3"]);
  });

  it("skips env's assignments and unsets", () => {
    expect(toolsOfCommand(["env", "-u", "HOME", "A=1", "B=x=y", "/usr/local/bin/node", "s.js"])).toEqual(["env", "node"]);
  });

  it("follows nested wrappers and stops at a wrapped name it cannot know", () => {
    expect(toolsOfCommand(["sudo", "nohup", "nice", "rsync", "-a"])).toEqual(["sudo", "nohup", "nice", "rsync"]);
    expect(toolsOfCommand(["sudo", null, "x"])).toEqual(["sudo"]);
    expect(toolsOfCommand(["env", "-C", null, "make"])).toEqual(["env", "make"]);
    expect(toolsOfCommand(["env", null, "make"])).toEqual(["env"]);
  });

  it("drops builtins that are not tools, also as wrapped commands", () => {
    expect(toolsOfCommand(["command", "-v", "jq"])).toEqual([]);
    expect(toolsOfCommand(["xargs", "echo"])).toEqual(["xargs"]);
    expect(toolsOfCommand(["/bin/true"])).toEqual([]);
    expect(toolsOfCommand([null, "arg"])).toEqual([]);
  });
});
