/**
 * `multipleOf` on the numbers the JSON text means, not on their binary approximations.
 *
 * A JSON number is a decimal: `0.3` is a multiple of `0.1` and `19.99` of `0.01`, yet the float
 * quotients are `2.9999999999999996` and `1998.9999999999998`, so the usual `Number.isInteger(v / m)`
 * refuses exactly what schema authors and models write (prices, steps, temperatures). It is also
 * wrong the other way: `1e20 / 3` rounds to an integer although 10^20 is no multiple of 3. Each
 * double is read as the decimal of its shortest round-trip form (`String(x)`, what JSON.stringify
 * writes and what a model most likely typed), and the division is done exactly on integers.
 */

// Past this quotient the float no longer tells integers apart from near-integers.
const FAST_REJECT_LIMIT = 2 ** 40
// The float quotient is within a few ulps of the exact one; this margin is far wider.
const FAST_REJECT_MARGIN = 1e-3

/** `|x|` (finite, non-zero) as `digits × 10^exponent` as its shortest form reads, no zeros at either end of `digits`. */
function decimalOf(x: number): { digits: string; exponent: number } {
  const text = String(Math.abs(x))
  const e = text.indexOf('e')
  const mantissa = e < 0 ? text : text.slice(0, e)
  let exponent = e < 0 ? 0 : Number(text.slice(e + 1))
  const dot = mantissa.indexOf('.')
  const all = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1)
  if (dot >= 0) exponent -= mantissa.length - dot - 1
  let start = 0
  while (all.charCodeAt(start) === 48) start++
  let end = all.length
  while (all.charCodeAt(end - 1) === 48) {
    end--
    exponent++
  }
  return { digits: all.slice(start, end), exponent }
}

// Powers of ten as BigInt, built once: exponents of doubles span about 650 decades.
const POWERS_OF_TEN: bigint[] = [1n]

function powerOfTen(k: number): bigint {
  while (POWERS_OF_TEN.length <= k) POWERS_OF_TEN.push(POWERS_OF_TEN[POWERS_OF_TEN.length - 1]! * 10n)
  return POWERS_OF_TEN[k]!
}

// A schema checks many values against one divisor: its decimal is kept.
let lastDivisor = Number.NaN
let lastDivisorDecimal = { digits: '1', exponent: 0 }

/**
 * Whether `value / divisor` is an integer, exactly, for finite `value` and finite `divisor > 0`
 * (the gate guarantees the divisor; a non-finite value is not a JSON number and never passes).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0
  if (!Number.isFinite(value)) return false
  if (value === 0) return true
  if (Math.abs(value) < divisor) return false
  const quotient = Math.abs(value / divisor)
  if (quotient < FAST_REJECT_LIMIT && Math.abs(quotient - Math.round(quotient)) > FAST_REJECT_MARGIN)
    return false
  const v = decimalOf(value)
  if (divisor !== lastDivisor) {
    lastDivisorDecimal = decimalOf(divisor)
    lastDivisor = divisor
  }
  const m = lastDivisorDecimal
  // v.digits has no trailing zero, so a power-of-ten divisor (0.01, 1e-8) divides it exactly when
  // its exponent is no smaller: no big integers needed.
  if (m.digits === '1') return v.exponent >= m.exponent
  // v.digits·10^v.exponent ÷ m.digits·10^m.exponent is an integer iff, after moving the larger
  // power of ten to its side, the divisor's digits divide the value's.
  const shift = v.exponent - m.exponent
  return shift >= 0
    ? (BigInt(v.digits) * powerOfTen(shift)) % BigInt(m.digits) === 0n
    : BigInt(v.digits) % (BigInt(m.digits) * powerOfTen(-shift)) === 0n
}
