import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // No test reaches the publisher's real addresses: loopback endpoints in every process, non-loopback sockets refused.
    setupFiles: ["./test/helpers/no-outside-network.ts"],
    // The second reporter prints one line naming how many groups were skipped for want of ../shared/data.
    reporters: ["default", "./test/helpers/skip-summary.ts"],
  },
});
