/**
 * PostgreSQL for tests (issue 34): the server of test/helpers/postgres-server.ts, and `describePostgres`, which runs
 * its group only where a server binary is found; elsewhere one skipped test says why (one line), as
 * test/helpers/shared.ts does for ../shared.
 */
import { describe, it } from "vitest";
import { postgresBin } from "./postgres-server.js";

export { databaseName, postgresBin, startPostgres, type PgServer, type PgServerOptions } from "./postgres-server.js";

/** Text in the name of the one skipped test that stands for a group skipped without PostgreSQL. */
export const POSTGRES_SKIP_MARK = "[needs PostgreSQL]";

/** `describe` for tests that need a PostgreSQL server: without one, a single skipped test says why. */
export function describePostgres(name: string, fn: () => void): void {
  if (postgresBin !== undefined) describe(name, fn);
  else describe(name, () => it.skip(`${POSTGRES_SKIP_MARK} skipped: no /usr/lib/postgresql/<13+>/bin/postgres (.ci/run installs Debian's postgresql)`, () => {}));
}

