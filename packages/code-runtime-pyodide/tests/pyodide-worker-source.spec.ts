import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildPyodideWorkerModule, GENERATED_PATH } from '../scripts/pyodide-worker-source'

describe('the generated Pyodide worker source', () => {
  it('is up to date with src/worker/pyodide (run `pnpm generate` after editing it)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await buildPyodideWorkerModule())
  })
})
