/**
 * Vitest reporter that prints one line at the end of a run saying how many test groups were skipped because
 * `../shared/data` is absent (see `describeShared` in shared.ts), so a fresh clone says what it did not test.
 */
import type { Reporter, TestModule } from "vitest/node";
import { SHARED_SKIP_MARK, sharedRoot } from "./shared.js";

export default class SharedSkipSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let groups = 0;
    const files = new Set<string>();
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        if (test.name.startsWith(SHARED_SKIP_MARK)) {
          groups++;
          files.add(mod.moduleId);
        }
      }
    }
    if (groups > 0) {
      process.stdout.write(
        `\nshared data: ${groups} test group(s) in ${files.size} file(s) skipped because ${sharedRoot}/data is absent ` +
          "(they check conformance against the shared reference data; the synthetic fixtures in examples/ ran)\n",
      );
    }
  }
}
