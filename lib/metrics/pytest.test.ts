import { describe, expect, it } from "vitest";
import { measurePytest } from "./pytest";

const SOURCE = `import os
import pytest

OUTPUT = "/app/" "report.csv"
LOG = '/var/log/app.log'


def helper():
    assert os.path.exists("/app/helper-only")


@pytest.mark.parametrize("name", ["a", "b"])
def test_files_exist(name):
    def nested_check(path):
        assert os.path.isfile(path)
    nested_check(OUTPUT)
    assert os.path.exists(f"/app/data/{name}.json")
    for line in open(LOG):
        if line:
            assert "ERROR" not in line, "no errors"


async def test_async_service():
    with open("/etc/hosts") as hosts:
        assert hosts.read()


class TestReport:
    def setup_method(self):
        assert True

    @pytest.mark.slow
    def test_header(self):
        assert open(OUTPUT).readline() == "id,value\\n"
        assert 1 + 1 == 2

    def test_no_asserts(self):
        pass

    class TestNested:
        def test_inner(self):
            assert "/tmp/" + "x"


class Helper:
    def test_not_collected(self):
        assert False
`;

describe("measurePytest", () => {
  it("counts pytest-collected tests: module functions (decorated, async) and Test* class methods", async () => {
    const metrics = await measurePytest(SOURCE);
    expect(metrics.testNames).toEqual([
      "test_files_exist",
      "test_async_service",
      "TestReport::test_header",
      "TestReport::test_no_asserts",
      "TestReport::TestNested::test_inner",
    ]);
    expect(metrics.tests).toBe(5);
  });

  it("counts asserts inside tests only, not in helpers or nested functions", async () => {
    // test_files_exist 2 (the nested_check assert is skipped), async 1, header 2, inner 1
    expect((await measurePytest(SOURCE)).asserts).toBe(6);
  });

  it("collects absolute path literals, joining implicit concatenation and cutting f-strings", async () => {
    expect((await measurePytest(SOURCE)).paths).toEqual([
      "/app/report.csv",
      "/var/log/app.log",
      "/app/helper-only",
      "/app/data/",
      "/etc/hosts",
      "/tmp/",
    ]);
  });

  it("ignores strings that are not file paths", async () => {
    const source = [
      'a = "/"',
      'b = "//cdn.example.com/x.js"',
      'c = "/app/has space"',
      'd = "not/absolute"',
      'e = r"/\\d+/"',
      'f = "/data/{}.csv".format(1)',
      'g = "/srv/%s.log" % "x"',
      'h = f"{base}/out.txt"',
      "i = b'/bin/sh'",
      'j = f"/opt/{v}" "/bin"',
    ].join("\n");
    expect((await measurePytest(source)).paths).toEqual(["/data/", "/srv/", "/bin/sh", "/opt/"]);
  });

  it("is zero for a file without tests and tolerates syntax errors", async () => {
    expect(await measurePytest("")).toEqual({ tests: 0, asserts: 0, testNames: [], paths: [] });
    const broken = await measurePytest("def test_ok():\n    assert 1\n\ndef test_broken(:\n");
    expect(broken.testNames).toContain("test_ok");
  });

  it("reads CRLF sources", async () => {
    const metrics = await measurePytest("def test_a():\r\n    assert 1\r\n    assert 2\r\n");
    expect(metrics).toMatchObject({ tests: 1, asserts: 2 });
  });
});
