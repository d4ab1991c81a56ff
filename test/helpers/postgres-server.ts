/**
 * A real PostgreSQL server for tests (issue 34: never a mock). Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin, the newest version 13 or above; `.ci/run` installs the `postgresql` package)
 * run in a fresh temporary directory: a copy of a data directory initialized once per machine (initdb with a random
 * superuser password: scram over TCP, trust on the unix socket in that directory), the server listening on
 * 127.0.0.1 only, on a free port, fsync off. Started once per test file (about a second), one database per test ({@link PgServer.database}); {@link PgServer.stop} and
 * {@link PgServer.start} restart it on the same directory; {@link PgServer.close} stops it and removes the directory.
 *
 * initdb and postgres refuse to run as root: when the tests run as root, both run as the `postgres` system user
 * (`setpriv`, which execs, so the child's pid is the server's), and the directory is handed to that user.
 *
 * Free of vitest, so a benchmark can start a server too (bench/team.bench.ts); tests use test/helpers/postgres.ts,
 * whose `describePostgres` skips with one line where no server binary is found.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The newest PostgreSQL server bin directory under `root` (Debian's layout: `<root>/<major>/bin`), 13 or newer. */
export function findPostgresBin(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && Number(v) >= 13 && existsSync(join(root, v, "bin", "postgres")) && existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : undefined;
}

/** The server the tests use; undefined when none is installed (then the team groups skip with one line). */
export const postgresBin: string | undefined = findPostgresBin("/usr/lib/postgresql");

const isRoot = process.getuid?.() === 0;

/** uid and gid of the `postgres` system user (only needed as root). */
function postgresUser(): { uid: number; gid: number } {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) throw new Error("test/helpers/postgres-server.ts: running as root, but there is no `postgres` user to run the server as");
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The command line that runs `bin` as the unprivileged user (itself when not root). */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return isRoot ? ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", bin, ...args]] : [bin, args];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PgServerOptions {
  /** PEM certificate and key files: the server then offers TLS (ssl = on) with them. */
  tls?: { cert: string; key: string };
}

export interface PgServer {
  readonly port: number;
  readonly dir: string;
  readonly password: string;
  /** A fresh empty database; its URL as the superuser (`postgres://postgres:…@127.0.0.1:PORT/NAME`). */
  database(query?: string): Promise<string>;
  /** The URL of an existing database with another query string (e.g. `sslmode=verify-full&sslrootcert=…`). */
  urlOf(database: string, query?: string): string;
  /** Runs SQL as the superuser in a database (what a hostile operator can do). */
  sql<R extends Record<string, unknown> = Record<string, unknown>>(database: string, text: string, params?: unknown[]): Promise<R[]>;
  /** `pg_dump` of a database, as text. */
  dump(database: string): string;
  /** Fast shutdown (waits for it); `start` brings the same data directory back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

let counter = 0;

/**
 * An initialized data directory to copy (initdb costs seconds on a loaded machine, a copy a fraction of that), made
 * once per machine, PostgreSQL version and user in the temporary directory: `data/` and the superuser's random
 * `password`. Made under a private name and renamed into place, so concurrent test files never see half of one.
 */
function initializedTemplate(bin: string, owner: { uid: number; gid: number } | undefined): string {
  const version = bin.split("/").at(-2)!;
  const template = join(tmpdir(), `eb-pg-template-${version}-${process.getuid?.() ?? "u"}`);
  if (existsSync(join(template, "password"))) return template;
  const work = mkdtempSync(join(tmpdir(), "eb-pg-init-"));
  const own = (p: string) => {
    if (owner !== undefined) chownSync(p, owner.uid, owner.gid);
  };
  own(work);
  const password = randomBytes(12).toString("hex");
  writeFileSync(join(work, "pw"), `${password}\n`, { mode: 0o600 });
  own(join(work, "pw"));
  const [cmd, args] = asServerUser(join(bin, "initdb"), [
    "-D", join(work, "data"), "-U", "postgres", "--pwfile", join(work, "pw"), "--auth-local=trust", "--auth-host=scram-sha-256",
    "-E", "UTF8", "--locale=C", "--no-sync",
  ]);
  const init = spawnSync(cmd, args, { cwd: work, encoding: "utf8" });
  if (init.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${(init.stderr || init.stdout).trim().split("\n").slice(-3).join(" | ")}`);
  }
  rmSync(join(work, "pw"));
  writeFileSync(join(work, "password"), `${password}\n`, { mode: 0o600 });
  try {
    renameSync(work, template);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another test file made it first
  }
  return template;
}

/** Starts a server in a fresh temporary directory (see the module comment). */
export async function startPostgres(options: PgServerOptions = {}): Promise<PgServer> {
  if (postgresBin === undefined) throw new Error("test/helpers/postgres-server.ts: no PostgreSQL server binary found (tests: use describePostgres)");
  const bin = postgresBin;
  const dir = mkdtempSync(join(tmpdir(), "eb-pg-"));
  const data = join(dir, "data");
  const owner = isRoot ? postgresUser() : undefined;
  const own = (p: string) => {
    if (owner !== undefined) chownSync(p, owner.uid, owner.gid);
  };
  own(dir);
  chmodSync(dir, 0o700);
  const template = initializedTemplate(bin, owner);
  const copy = spawnSync("cp", ["-a", join(template, "data"), data]);
  if (copy.status !== 0) throw new Error(`copying the initialized data directory failed: ${copy.stderr.toString().trim()}`);
  const password = readFileSync(join(template, "password"), "utf8").trim();
  const settings = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "shared_buffers=16MB", "-c", "max_connections=60"];
  if (options.tls !== undefined) {
    for (const [name, file] of [["server.crt", options.tls.cert], ["server.key", options.tls.key]] as const) {
      copyFileSync(file, join(dir, name));
      chmodSync(join(dir, name), 0o600);
      own(join(dir, name));
    }
    settings.push("-c", "ssl=on", "-c", `ssl_cert_file=${join(dir, "server.crt")}`, "-c", `ssl_key_file=${join(dir, "server.key")}`);
  }

  let port = 0;
  let child: ChildProcess | undefined;
  const killOnExit = () => {
    if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGQUIT");
  };
  process.on("exit", killOnExit);

  async function launch(fixedPort: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!fixedPort) port = await freePort();
      const [cmd, args] = asServerUser(join(bin, "postgres"), ["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", dir, ...settings]);
      const c = spawn(cmd, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
      child = c;
      let log = "";
      const ready = await new Promise<boolean>((resolve) => {
        c.stderr!.setEncoding("utf8");
        c.stderr!.on("data", (d: string) => {
          log = (log + d).slice(-4000);
          if (log.includes("ready to accept connections")) resolve(true);
        });
        c.once("exit", () => resolve(false));
      });
      if (ready) {
        c.stderr!.resume(); // keep draining the server's log
        return;
      }
      const busy = /could not bind|Address already in use/.test(log);
      if (!(busy && attempt < 3)) throw new Error(`postgres did not start: ${log.trim().split("\n").slice(-3).join(" | ")}`);
      // Restarting on a fixed port (after stop) waits for the port; a fresh start picks another.
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  async function stop(): Promise<void> {
    const c = child;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    process.kill(c.pid!, "SIGINT"); // fast shutdown: active sessions are ended, then a clean stop
    await exited;
  }

  await launch(false);

  const urlOf = (database: string, query?: string) =>
    `postgres://postgres:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}${query === undefined ? "" : `?${query}`}`;

  async function sql<R extends Record<string, unknown>>(database: string, text: string, params: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database, ssl: false });
    await client.connect();
    try {
      return (await client.query<R>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  return {
    get port() {
      return port;
    },
    dir,
    password,
    async database(query?: string) {
      const name = `t${process.pid}_${++counter}`;
      await sql("postgres", `CREATE DATABASE ${name}`);
      return urlOf(name, query);
    },
    urlOf,
    sql,
    dump(database: string) {
      const r = spawnSync(join(bin, "pg_dump"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database], {
        encoding: "utf8",
        env: { ...process.env, PGPASSWORD: password, PGSSLMODE: "disable" },
        maxBuffer: 1 << 30,
      });
      if (r.status !== 0) throw new Error(`pg_dump failed: ${r.stderr.trim()}`);
      return r.stdout;
    },
    stop,
    start: () => launch(true),
    async close() {
      await stop();
      process.off("exit", killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The database name in a URL made by {@link PgServer.database}. */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
