// A vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`,
// so CI can read the outcome without parsing vitest's own summary.
import type { Reporter, TestModule } from 'vitest/node'

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
      }
      // A file that fails to load has no tests but must not read as green.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++
    }
    counts.failed += unhandledErrors.length
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
  }
}
