/**
 * Conformance case for data: the JSON text is stored and returned byte for byte, never parsed
 * and re-serialized — through create, get, list and update.
 */
import { checkRecord, checkSameText } from './conformance-assert'
import { caseScope, createdFrom, refOf } from './conformance-records'
import {
  type StoreConformanceCase,
  type StoreConformanceHarness,
  withStore,
} from './store-conformance-harness'

/** 2 MiB of JSON string content mixing ASCII, escapes and astral characters. */
function largeText(): string {
  const unit = 'abc \\"q\\" \\u0000 é 😀 \\ud800 '
  const body = unit.repeat(Math.ceil((2 * 1024 * 1024) / unit.length))
  return `{"big":"${body}"}`
}

/** Texts a store that parses JSON, normalizes unicode, trims or sorts keys would change. */
function losslessTexts(): ReadonlyArray<readonly [string, string]> {
  return [
    ['a 20-digit integer', '{"n":12345678901234567890}'],
    ['negative zero', '{"z":-0}'],
    [
      'a number beyond double range',
      '{"big":1e400,"tiny":1e-400,"exact":0.1000000000000000055511151231257827}',
    ],
    ['an escaped lone surrogate', '{"s":"\\ud800","t":"\\udfff x"}'],
    ['an escaped NUL', '{"nul":"\\u0000","mixed":"a\\u0000b"}'],
    ['astral characters', '{"emoji":"😀🧪","music":"𝄞","cjk":"漢字"}'],
    ['combining characters left unnormalized', '{"e":"e\u0301","é":"\u00e9"}'],
    ['keys in non-sorted order', '{"zeta":1,"alpha":2,"mid":{"b":1,"a":0}}'],
    ['duplicate keys', '{"a":1,"a":2}'],
    ['whitespace', ' \n\t{ "a" : [ 1 ,\r\n 2 ] }\n '],
    ['a bare string', '"just text"'],
    ['a 2 MiB text', largeText()],
  ]
}

/** The lossless cases of {@link storeConformanceCases}. */
export function losslessCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    {
      name: 'data is returned byte for byte (big integers, -0, 1e400, escapes, astral characters, 2 MiB, key order, whitespace)',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('lossless')
          const texts = losslessTexts()
          for (const [i, [what, data]] of texts.entries()) {
            const record = scope.record(`text-${String(i).padStart(2, '0')}`, { data })
            checkRecord(await store.create(record), createdFrom(record), `create returns ${what}`)
            checkRecord(await store.get(refOf(record)), createdFrom(record), `get returns ${what}`)
            // Updated into another record's text, so an update path that re-encodes is caught too.
            const [, next] = texts[(i + 1) % texts.length] as readonly [string, string]
            const updated = await store.update(refOf(record), 1, {
              state: 'done',
              data: next,
              updatedAt: scope.now + 1,
            })
            checkSameText(updated?.data, next, `update returns ${what} replaced`)
            checkSameText(
              (await store.get(refOf(record)))?.data,
              next,
              `get after update returns ${what} replaced`,
            )
          }
          const listed = await store.list({ kind: 'approval', agent: scope.agent })
          for (const [i] of texts.entries()) {
            const [what, next] = texts[(i + 1) % texts.length] as readonly [string, string]
            checkSameText(listed[i]?.data, next, `list returns record ${i} (now holding ${what})`)
          }
        }),
    },
  ]
}
