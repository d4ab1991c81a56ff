/** Temporary data directories for crypto tests, removed after each file. */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

export function tempDir(tag: string): string {
  const d = join(process.env.TMPDIR ?? "/tmp", `eb-crypto-${tag}-${process.pid}-${randomBytes(4).toString("hex")}`);
  made.push(d);
  return d;
}

/** Cheap scrypt parameters for tests (production default is n=2^16, r=8, p=2). */
export const TEST_KDF = { n: 1024, r: 8, p: 1 } as const;
