/**
 * TLS to the team database (issue 34: "TLS with certificate verification whenever the URL asks for it"), against a
 * real PostgreSQL server offering a certificate made here with openssl: issued by a test CA for the name
 * `localhost` only. verify-full accepts it for `localhost` and refuses it for `127.0.0.1` (the certificate does not
 * name that host) and under another CA; verify-ca and require connect without the host check; each refusal is one
 * line naming the TLS check that failed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { databaseName, describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";

function openssl(dir: string, args: string[]): void {
  const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.trim()}`);
}

/** A CA, a server certificate it issued for DNS:localhost, and a second CA that issued nothing here. */
function makeCertificates(dir: string): void {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  for (const ca of ["ca", "other-ca"]) {
    openssl(dir, ["req", "-x509", ...ec, "-keyout", `${ca}.key`, "-out", `${ca}.crt`, "-days", "2", "-subj", `/CN=evidence-bridge test ${ca}`,
      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  }
  openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
  writeFileSync(join(dir, "san.cnf"), "subjectAltName=DNS:localhost\n");
  openssl(dir, ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.cnf"]);
}

/** openssl makes the certificates (Debian's postgresql pulls it in through ssl-cert). */
const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

describePostgres("team database over TLS", () => {
  if (!hasOpenssl) {
    describe("certificates", () => it.skip("[needs openssl] skipped: no openssl to make the test certificates", () => {}));
    return;
  }
  let server: PgServer;
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "eb-team-tls-"));
    makeCertificates(dir);
    server = await startPostgres({ tls: { cert: join(dir, "server.crt"), key: join(dir, "server.key") } });
    db = databaseName(await server.database());
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const url = (host: string, query: string) => `postgres://postgres:${server.password}@${host}:${server.port}/${db}?${query}`;

  test("verify-full: the certificate names localhost and the test CA issued it, so the queue opens over TLS", async () => {
    const q = await openTeamQueue(url("localhost", `sslmode=verify-full&sslrootcert=${join(dir, "ca.crt")}`), { create: true });
    try {
      expect(await q.counts()).toEqual({ objects: 0, records: 0 });
      const rows = await server.sql<{ ssl: boolean }>(db, "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid WHERE a.application_name = 'evidence-bridge'");
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.ssl)).toBe(true);
    } finally {
      await q.close();
    }
  });

  test("verify-full refuses a certificate that does not name the host, and one from an untrusted CA", async () => {
    const wrongHost = await openTeamQueue(url("127.0.0.1", `sslmode=verify-full&sslrootcert=${join(dir, "ca.crt")}`), { create: true }).catch((e: Error) => e);
    expect(String(wrongHost)).toBe(
      `TeamDatabaseError: team database postgres@127.0.0.1:${server.port}/${db}: TLS refused while opening the team schema: the server's certificate does not name this host (sslmode=verify-full)`,
    );
    const wrongCa = await openTeamQueue(url("localhost", `sslmode=verify-full&sslrootcert=${join(dir, "other-ca.crt")}`), { create: true }).catch((e: Error) => e);
    expect(String(wrongCa)).toMatch(/TLS refused while opening the team schema: the server's certificate is not signed by a trusted root \(sslrootcert\)$/);
    const systemRoots = await openTeamQueue(url("localhost", "sslmode=verify-full"), { create: true }).catch((e: Error) => e);
    expect(String(systemRoots)).toMatch(/TLS refused while opening the team schema: the server's certificate is not signed by a trusted root/);
    for (const e of [wrongHost, wrongCa, systemRoots]) expect(String(e)).not.toContain(server.password);
  });

  test("verify-ca checks the chain but not the name; require encrypts without checking", async () => {
    const vca = await openTeamQueue(url("127.0.0.1", `sslmode=verify-ca&sslrootcert=${join(dir, "ca.crt")}`), { create: true });
    expect(await vca.counts()).toEqual({ objects: 0, records: 0 });
    await vca.close();
    const badChain = await openTeamQueue(url("127.0.0.1", `sslmode=verify-ca&sslrootcert=${join(dir, "other-ca.crt")}`), { create: true }).catch((e: Error) => e);
    expect(String(badChain)).toMatch(/TLS refused/);
    const req = await openTeamQueue(url("127.0.0.1", "sslmode=require"), { create: true });
    expect(await req.counts()).toEqual({ objects: 0, records: 0 });
    await req.close();
  });
});
