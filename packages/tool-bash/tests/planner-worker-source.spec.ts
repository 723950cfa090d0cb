import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildPlannerWorkerModule, GENERATED_PATH } from '../scripts/planner-worker-source'

describe('the generated planner worker source', () => {
  it('is up to date with src/worker and src/protection (run `pnpm generate` when this fails)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await buildPlannerWorkerModule())
  })
})
