// Where a Dockerfile's COPY and ADD put the files shipped beside it.
import { describe, expect, it } from "vitest";
import { copyInstructions, destinationsOf, withoutCopySources } from "./dockerfile";

const DOCKERFILE = `FROM ubuntu:24.04
# the app
WORKDIR /srv/app
COPY Makefile /srv/app/src/Makefile
COPY --chown=app:app data/ ./data/
COPY ["conf/app.ini", "conf/extra.ini", "/etc/app/"]
ADD https://example.com/x.tar.gz /opt/
COPY --from=builder /out/bin /usr/local/bin/
COPY *.sql \\
     /docker-entrypoint-initdb.d/
WORKDIR $HOME
COPY notes.txt notes.txt
`;

describe("Dockerfile copies", () => {
  const copies = copyInstructions(DOCKERFILE);

  it("resolves destinations against WORKDIR, files into directories, globs, JSON form", () => {
    expect(destinationsOf("Makefile", copies)).toEqual(["/srv/app/src/Makefile"]);
    expect(destinationsOf("data/2024/input.csv", copies)).toEqual(["/srv/app/data/2024/input.csv"]);
    expect(destinationsOf("conf/extra.ini", copies)).toEqual(["/etc/app/extra.ini"]);
    expect(destinationsOf("schema.sql", copies)).toEqual(["/docker-entrypoint-initdb.d/schema.sql"]);
    // Copied to a place that cannot be known, or not copied at all: the caller goes by its name.
    expect(destinationsOf("notes.txt", copies)).toBeNull();
    expect(destinationsOf("README.md", copies)).toBeNull();
    expect(destinationsOf("x", copyInstructions("FROM a\nWORKDIR /app\nCOPY . .\n"))).toEqual(["/app/x"]);
  });

  it("keeps only what a COPY tells about the image: its destination", () => {
    const told = withoutCopySources(DOCKERFILE);
    expect(told).toContain("COPY /srv/app/src/Makefile");
    expect(told).toContain("COPY ./data/");
    expect(told).not.toMatch(/\bMakefile \/srv/);
    expect(told).not.toContain("conf/app.ini");
    expect(told).toContain("WORKDIR /srv/app");
    expect(told).toContain("COPY /docker-entrypoint-initdb.d/");
  });
});
