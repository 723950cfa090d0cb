// Property: admitting arguments as JSON text (`admitJson`, no copy) decides exactly as admitting
// the value a runtime would have parsed from that text (`admit`, a checked copy): the same
// acceptance, the same value and queue bytes, the same refusal message, under any budgets.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CODE_MODE_CONFIG } from '../src/config'
import { SubCallAdmission } from '../src/sub-call-admission'

const SEED = Number(process.env.FC_SEED ?? 20261201)
const RUNS = Number(process.env.FC_RUNS ?? 300)

/** A generated value's text, sometimes with a lossy number literal spliced in. */
const argumentText = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, '-0', '1e400', '-1e999'))
  .map(([value, lossy]) => {
    const text = JSON.stringify(value)
    return lossy === undefined ? text : `{"ok":${text},"lossy":[${lossy}]}`
  })

describe('SubCallAdmission.admitJson', () => {
  it('decides as admit() of the parsed value: same outcome, value and bytes; same message unless its scan refused first', () => {
    fc.assert(
      fc.property(
        argumentText,
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 80 }),
        (text, maxArgumentNodes, maxArgumentStringLength) => {
          const limits = { ...DEFAULT_CODE_MODE_CONFIG, maxArgumentNodes, maxArgumentStringLength }
          const expected = new SubCallAdmission(limits).admit(JSON.parse(text))
          const actual = new SubCallAdmission(limits).admitJson(text)
          expect(actual.ok).toBe(expected.ok)
          // Over maxArgumentNodes, the scan before the parse refuses with its own wording.
          if (actual.ok || !actual.message.includes('more than')) expect(actual).toStrictEqual(expected)
          if (actual.ok) expect(Object.isFrozen(actual.value) || typeof actual.value !== 'object').toBe(true)
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('applies maxOutstandingSubCalls before reading the text', () => {
    const admission = new SubCallAdmission({ ...DEFAULT_CODE_MODE_CONFIG, maxOutstandingSubCalls: 1 })
    admission.submitted()
    const refused = admission.admitJson('not json at all')
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.message).toContain('`maxOutstandingSubCalls`')
    admission.settled()
    const malformed = admission.admitJson('not json at all')
    expect(!malformed.ok && malformed.message).toMatch(/^arguments are not lossless JSON: \$: not JSON text/)
  })
})
