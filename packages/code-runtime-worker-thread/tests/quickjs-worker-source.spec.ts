import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildQuickJSWorkerModule, GENERATED_PATH } from '../scripts/quickjs-worker-source'

describe('the generated QuickJS worker source', () => {
  it('is up to date with src/worker/quickjs (run `pnpm generate` after editing it)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await buildQuickJSWorkerModule())
  })
})
