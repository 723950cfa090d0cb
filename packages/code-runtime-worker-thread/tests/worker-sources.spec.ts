import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GENERATED_MODULES } from '../scripts/generate'

describe('the generated worker sources', () => {
  it.each(GENERATED_MODULES.map((module) => [relative(process.cwd(), module.path), module] as const))(
    '%s is up to date with its TypeScript modules (run `pnpm generate` after editing them)',
    async (_, module) => {
      expect(readFileSync(module.path, 'utf8')).toBe(await module.build())
    },
  )
})
