import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one worker on the two-core machines this project is
    // built and checked on, while many test files spend their time waiting on child processes. Two workers keep
    // both cores busy (CONTRIBUTING.md has the figures).
    maxWorkers: Math.max(2, availableParallelism()),
    // No test reaches the publisher's real addresses: loopback endpoints in every process, non-loopback sockets refused.
    setupFiles: ["./test/helpers/no-outside-network.ts"],
    // The second reporter prints one line naming how many groups were skipped for want of ../shared/data.
    reporters: ["default", "./test/helpers/skip-summary.ts"],
  },
});
