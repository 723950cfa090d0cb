import { describe, expect, it } from 'vitest'
import type { BashResult } from '../src/bash-result'
import { bashPresentationMeta, presentBashCall, presentBashResult, renderBashText } from '../src/present'

const value = (patch: Partial<BashResult> = {}): BashResult => ({
  stdout: '',
  stderr: '',
  exitCode: 0,
  signal: null,
  truncated: false,
  timedOut: false,
  ...patch,
})
const args = { command: 'make test', description: 'run the tests' }

describe('bash rendering', () => {
  it('renders stdout, stderr and a non-zero exit code', () => {
    expect(renderBashText(value({ stdout: 'a\n', stderr: 'b\n', exitCode: 2 }), 1000)).toBe(
      'a\n[stderr]\nb\n[exit code: 2]',
    )
  })

  it('says (no output) for a silent success', () => {
    expect(renderBashText(value(), 1000)).toBe('(no output)')
  })

  it('names the budget on a timeout and the signal on a kill', () => {
    expect(renderBashText(value({ exitCode: null, signal: 'SIGTERM', timedOut: true }), 250)).toBe(
      '[timed out after 250ms; process group killed]',
    )
    expect(renderBashText(value({ exitCode: null, signal: 'SIGKILL' }), 250)).toBe(
      '[killed by signal SIGKILL]',
    )
  })
})

describe('bash cards', () => {
  it('the call card is a terminal titled with the command, with the resolved cwd', () => {
    expect(presentBashCall({ ...args, workdir: 'sub' }, '/work')).toEqual({
      card: 'terminal',
      title: 'make test',
      description: 'run the tests',
      cwd: '/work/sub',
    })
  })

  it('the result card is derived from the persisted meta', () => {
    const meta = bashPresentationMeta(value({ stdout: 'ok\n', exitCode: 1 }))
    const record = { isError: false, content: [{ type: 'text' as const, text: 'ignored' }] }
    expect(presentBashResult(args, record, { ...meta })).toEqual({
      card: 'terminal',
      title: 'make test',
      output: 'ok',
      exitCode: 1,
      signal: null,
    })
  })

  it('without usable meta (failure, nested call, old log) the card falls back to the record text', () => {
    const record = { isError: true, content: [{ type: 'text' as const, text: 'Error: tool call aborted' }] }
    expect(presentBashResult(args, record, undefined)).toEqual({
      card: 'terminal',
      title: 'make test',
      output: 'Error: tool call aborted',
    })
    expect(presentBashResult(args, { ...record, isError: false }, [1, 2])).toMatchObject({
      output: 'Error: tool call aborted',
    })
  })
})
