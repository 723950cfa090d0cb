// The guest's "did you mean" (a port of tools-core's closestNames, built on captured intrinsics)
// suggests exactly what a native call would, over the same names.
import { closestNames } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { unknownBindingMessage } from '../src/worker/quickjs/guest/unknown-binding'

const NAMES = [
  'add',
  'echo',
  'get_weather',
  'set_weather',
  'get_forecast',
  'read_file',
  'write_file',
  'Glob',
  'grep',
]
const TYPOS = [
  'get_wether',
  'GET_WEATHER',
  'weather',
  'reed_file',
  'wirte_file',
  'glob',
  'ad',
  'ehco',
  'xyz',
  '',
  'get_',
  'file',
]

function coreMessage(name: string, names: string[]): string {
  const close = closestNames(name, names).map((n) => `\`${n}\``)
  const last = close.pop()
  const hint =
    last === undefined
      ? ''
      : ` — did you mean ${close.length === 0 ? last : `${close.join(', ')} or ${last}`}?`
  return `unknown tool: ${name} is not a binding of this run${hint}`
}

describe('unknownBindingMessage (guest)', () => {
  it.each(TYPOS)('suggests what tools-core suggests for %j', (typo) => {
    expect(unknownBindingMessage(typo, NAMES)).toBe(coreMessage(typo, NAMES))
  })

  it('names the tool and the close binding', () => {
    expect(unknownBindingMessage('get_wether', ['get_weather'])).toBe(
      'unknown tool: get_wether is not a binding of this run — did you mean `get_weather`?',
    )
  })

  it('adds the deferred-tool hint when tool_search is a binding', () => {
    expect(unknownBindingMessage('zzz', ['tool_search'])).toMatch(
      /a deferred tool must be loaded with `tools\.tool_search\(\.\.\.\)` first/,
    )
  })
})
