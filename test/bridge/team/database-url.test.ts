/**
 * The team database URL (bridge/team/database-url.ts): strict parsing, the TLS modes and what each asks of
 * node-postgres, and error lines that never carry the password.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseTeamUrl, teamUrlFrom, tlsOptions, TEAM_URL_ENV } from "../../../bridge/team/database-url.js";

const dir = mkdtempSync(join(tmpdir(), "eb-team-url-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("team database URL", () => {
  test("fields, defaults and the printable form without the password", () => {
    const db = parseTeamUrl("postgresql://alice:s3cr%40t@db.example.org:6543/team_q?sslmode=verify-full&connect_timeout=5");
    expect(db).toMatchObject({ host: "db.example.org", port: 6543, database: "team_q", user: "alice", password: "s3cr@t", sslmode: "verify-full", connectTimeoutMs: 5000 });
    expect(db.display).toBe("alice@db.example.org:6543/team_q");
    expect(parseTeamUrl("postgres://127.0.0.1/q")).toMatchObject({ port: 5432, sslmode: "disable", user: undefined, password: undefined, connectTimeoutMs: 10_000 });
    expect(parseTeamUrl("postgres://[::1]:5433/q")).toMatchObject({ host: "::1", sslmode: "disable" });
  });

  test.each([
    ["not a url", /not a URL/],
    ["mysql://h/db?sslmode=require", /scheme must be postgres:\/\/ or postgresql:\/\/, not mysql:/],
    ["postgres://db.example.org/q", /sslmode is required for a host that is not loopback \(db\.example\.org\)/],
    ["postgres://h/q?sslmode=prefer", /sslmode=prefer may fall back to plain text silently/],
    ["postgres://h/q?sslmode=allow", /sslmode=allow may fall back/],
    ["postgres://h/q?sslmode=verify-everything", /unknown sslmode/],
    ["postgres://h/q?sslmode=require&host=/tmp", /unknown parameter "host"/],
    ["postgres://h/q?sslmode=require&sslmode=disable", /parameter "sslmode" given twice/],
    ["postgres://h/?sslmode=require", /the path must be one database name/],
    ["postgres://h/a/b?sslmode=require", /the path must be one database name/],
    ["postgres://h/q?sslmode=require#frag", /a fragment/],
    ["postgres://h/q?sslmode=require&sslrootcert=/x.pem", /sslrootcert with sslmode=require would not be checked/],
    ["postgres://127.0.0.1/q?sslrootcert=/x.pem", /need sslmode=require, verify-ca or verify-full/],
    ["postgres://h/q?sslmode=verify-full&sslcert=/c.pem", /sslcert and sslkey go together/],
    ["postgres://h/q?sslmode=require&connect_timeout=0", /connect_timeout must be whole seconds from 1 to 600/],
    ["postgres://h/q?sslmode=require&connect_timeout=2.5", /connect_timeout must be whole seconds/],
  ])("refuses %s", (url, rule) => {
    expect(() => parseTeamUrl(url)).toThrow(rule);
  });

  test("no error line carries the password", () => {
    for (const url of ["postgres://u:zqPassw0rd@db.example.org/q", "postgres://u:zqPassw0rd@h/q?sslmode=prefer", "postgres://u:zqPassw0rd@h/q?x=1", "mysql://u:zqPassw0rd@h/q"]) {
      let message = "";
      try {
        parseTeamUrl(url);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).not.toBe("");
      expect(message).not.toContain("zqPassw0rd");
    }
  });

  test("TLS options per mode: require does not verify, verify-ca skips the host name, verify-full checks both", () => {
    const ca = join(dir, "ca.pem");
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nnot read by this test\n-----END CERTIFICATE-----\n");
    expect(tlsOptions(parseTeamUrl("postgres://127.0.0.1/q"))).toBe(false);
    expect(tlsOptions(parseTeamUrl("postgres://h/q?sslmode=disable"))).toBe(false);
    expect(tlsOptions(parseTeamUrl("postgres://h/q?sslmode=require"))).toEqual({ rejectUnauthorized: false });
    const full = tlsOptions(parseTeamUrl(`postgres://h/q?sslmode=verify-full&sslrootcert=${ca}`));
    expect(full).toEqual({ rejectUnauthorized: true, ca: expect.stringContaining("BEGIN CERTIFICATE") });
    expect(tlsOptions(parseTeamUrl("postgres://h/q?sslmode=verify-full&sslrootcert=system"))).toEqual({ rejectUnauthorized: true });
    const vca = tlsOptions(parseTeamUrl(`postgres://h/q?sslmode=verify-ca&sslrootcert=${ca}`));
    expect(vca).toMatchObject({ rejectUnauthorized: true, ca: expect.any(String) });
    expect(vca && vca.checkServerIdentity?.()).toBeUndefined();
    expect(() => tlsOptions(parseTeamUrl(`postgres://h/q?sslmode=verify-full&sslrootcert=${join(dir, "absent.pem")}`))).toThrow(
      /cannot read sslrootcert file \(ENOENT\)/,
    );
  });

  test("--team wins over the environment; an empty variable is none", () => {
    expect(teamUrlFrom("postgres://a/b", { [TEAM_URL_ENV]: "postgres://c/d" })).toBe("postgres://a/b");
    expect(teamUrlFrom(undefined, { [TEAM_URL_ENV]: "postgres://c/d" })).toBe("postgres://c/d");
    expect(teamUrlFrom(undefined, { [TEAM_URL_ENV]: "" })).toBeUndefined();
    expect(teamUrlFrom(undefined, {})).toBeUndefined();
  });
});
