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

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/

/** `|x|` (finite, non-zero) as `digits × 10^exponent`, exactly as its shortest form reads. */
function decimalOf(x: number): { digits: bigint; exponent: number } {
  const match = DECIMAL.exec(String(Math.abs(x)))!
  const fraction = match[2] ?? ''
  return {
    digits: BigInt(match[1]! + fraction),
    exponent: Number(match[3] ?? 0) - fraction.length,
  }
}

/**
 * Whether `value / divisor` is an integer, exactly, for finite `value` and finite `divisor > 0`
 * (the gate guarantees the divisor; a non-finite value is not a JSON number and never passes).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0
  if (!Number.isFinite(value)) return false
  if (value === 0) return true
  const quotient = Math.abs(value / divisor)
  if (quotient < FAST_REJECT_LIMIT && Math.abs(quotient - Math.round(quotient)) > FAST_REJECT_MARGIN)
    return false
  const v = decimalOf(value)
  const m = decimalOf(divisor)
  // v.digits·10^v.exponent ÷ m.digits·10^m.exponent is an integer iff, after moving the larger
  // power of ten to its side, the divisor's digits divide the value's.
  const shift = v.exponent - m.exponent
  return shift >= 0
    ? (v.digits * 10n ** BigInt(shift)) % m.digits === 0n
    : v.digits % (m.digits * 10n ** BigInt(-shift)) === 0n
}
