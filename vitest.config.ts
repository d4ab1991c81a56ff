import { availableParallelism } from "node:os";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Test files that need a process of their own: they replace a module through `vi.mock`, which only a fresh module
 * graph undoes. Every other file shares its worker process, and the modules that worker has loaded, with the files
 * before it (`isolate: false`): loading zod, the MCP SDK and our sources once per worker instead of once per file
 * saves most of a second per file (CONTRIBUTING.md has the figures). test/helpers/leak-guard.ts fails any file
 * that leaves process-wide state changed, and test/vitest-isolation.test.ts checks that no shared file mocks a
 * module and that the guard catches a leak.
 */
export const ISOLATED_FILES = [
  "test/capsules/assess/phone-list.test.ts",
  "test/bridge/mcp/public-call-session.test.ts", // replaces bridge/mcp/server.js to prove public calls never load the SDK server
];

/**
 * Files that take longest (the type-check, the property tests, the crash and concurrency tests), started first, in
 * this order, so that neither worker is left alone with a long file at the end of the run. Vitest's own order on
 * a fresh clone, with no timings cached, is largest file first, which would leave the short property files last.
 */
export const LONG_FILES = [
  "test/bridge/team/team-processes.test.ts", // 1,000 capsules through separate CLI processes on PostgreSQL (issue 34)
  "test/typecheck.test.ts",
  "test/capsules/candidates/canary.property.test.ts",
  "test/capsules/assessment/property.test.ts",
  "test/capsules/review/concurrency.test.ts",
  "test/capsules/store/crash-and-race.test.ts",
  "test/bridge/cli/hostile-named-files.test.ts",
  "test/capsules/capsule/verify-fuzz.test.ts",
  "test/published/regional/load.test.ts",
  "test/capsules/exports/all-examples.test.ts",
  "test/bridge/mcp/inspector.test.ts",
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FILES.findIndex((l) => f.moduleId.endsWith(`/${l}`));
      return i < 0 ? LONG_FILES.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

const common = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // No test reaches the publisher's real addresses: loopback endpoints in every process, non-loopback sockets
  // refused; and no file leaves process-wide state changed for the next (test/helpers/leak-guard.ts).
  setupFiles: ["./test/helpers/no-outside-network.ts"],
};

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one worker on the two-core machines this project is
    // built and checked on, while many test files spend their time waiting on child processes. Two workers keep
    // both cores busy (CONTRIBUTING.md has the figures).
    maxWorkers: Math.max(2, availableParallelism()),
    // The second reporter prints one line naming how many groups were skipped for want of ../shared/data.
    reporters: ["default", "./test/helpers/skip-summary.ts"],
    sequence: { sequencer: LongFilesFirst },
    projects: [
      { test: { ...common, name: "shared-worker", include: ["test/**/*.test.ts"], exclude: ISOLATED_FILES, isolate: false } },
      { test: { ...common, name: "isolated", include: ISOLATED_FILES, isolate: true } },
    ],
  },
});
