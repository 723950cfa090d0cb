// A vitest reporter that ends the run with the skipped tests, grouped by file and under the
// reason they were skipped for, then one plain line, `N passed, N failed, N skipped`, so CI can read the
// outcome without parsing vitest's own summary.
//
// A test gives its reason with `ctx.skip(reason)` or `ctx.skip(condition, reason)` (vitest keeps
// it as the result's `note`); a static `it.skip`/`it.todo` has none and is listed as such, so a
// skip without a reason shows up in every run's summary.
import { relative } from 'node:path'
import type { Reporter, TestCase, TestModule } from 'vitest/node'

/** Why `test` was skipped: its note, or what vitest knows of it. */
export function skipReason(test: TestCase): string {
  const result = test.result()
  if (result.state === 'skipped' && result.note) return result.note
  if (test.options.mode === 'todo') return 'todo'
  if (result.state === 'pending') return 'did not run (the run ended first, or a filter left it out)'
  return 'no reason given (skip with ctx.skip(reason))'
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    // file → reason → the tests skipped for it: a reason shared by many tests is printed once.
    const skipped = new Map<string, Map<string, string[]>>()
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else {
          counts.skipped++
          const file = relative(process.cwd(), module.moduleId)
          const reasons = skipped.get(file) ?? new Map<string, string[]>()
          const reason = skipReason(test)
          reasons.set(reason, [...(reasons.get(reason) ?? []), test.fullName])
          skipped.set(file, reasons)
        }
      }
      // A file that fails to load has no tests but must not read as green.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++
    }
    counts.failed += unhandledErrors.length
    if (skipped.size > 0) {
      console.log(`\nSkipped tests (${counts.skipped}), by file, under the reason they were skipped for:`)
      for (const [file, reasons] of [...skipped].sort(([a], [b]) => a.localeCompare(b))) {
        console.log(file)
        for (const [reason, names] of reasons) {
          console.log(`  ${reason} (${names.length}):`)
          for (const name of names) console.log(`    - ${name}`)
        }
      }
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
  }
}
