import type { ToolRunContext } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { forwardProgress } from '../src/client/forward-progress'

describe('forwardProgress (the SPEC §12 seam)', () => {
  it('is a no-op while the run context has no progress reporter', () => {
    expect(() => forwardProgress({} as ToolRunContext, { progress: 1, total: 2 })).not.toThrow()
  })

  it('forwards { progress, total?, message? } once exec.progress exists, and a throwing reporter never fails the call', () => {
    const updates: unknown[] = []
    const exec = { progress: (update: unknown) => updates.push(update) } as unknown as ToolRunContext
    forwardProgress(exec, { progress: 1, total: 3, message: 'one' })
    forwardProgress(exec, { progress: 2 })
    expect(updates).toEqual([{ progress: 1, total: 3, message: 'one' }, { progress: 2 }])
    const throwing = {
      progress: () => {
        throw new Error('reporter broke')
      },
    } as unknown as ToolRunContext
    expect(() => forwardProgress(throwing, { progress: 1 })).not.toThrow()
  })
})
