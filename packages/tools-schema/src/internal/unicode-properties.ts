/**
 * `\p{…}` names of ECMAScript (`u` flag) read into the RE2 form the linear-time engine knows, or
 * undefined when the engine has no property with the same meaning (the pattern is then refused).
 */

/** General_Category long names (and ECMAScript's extra aliases) → the short names RE2 knows. */
const CATEGORY: Readonly<Record<string, string>> = {
  Cased_Letter: 'LC',
  Close_Punctuation: 'Pe',
  Connector_Punctuation: 'Pc',
  Control: 'Cc',
  cntrl: 'Cc',
  Currency_Symbol: 'Sc',
  Dash_Punctuation: 'Pd',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Enclosing_Mark: 'Me',
  Final_Punctuation: 'Pf',
  Format: 'Cf',
  Initial_Punctuation: 'Pi',
  Letter: 'L',
  Letter_Number: 'Nl',
  Line_Separator: 'Zl',
  Lowercase_Letter: 'Ll',
  Mark: 'M',
  Combining_Mark: 'M',
  Math_Symbol: 'Sm',
  Modifier_Letter: 'Lm',
  Modifier_Symbol: 'Sk',
  Nonspacing_Mark: 'Mn',
  Number: 'N',
  Open_Punctuation: 'Ps',
  Other_Letter: 'Lo',
  Other_Number: 'No',
  Other_Punctuation: 'Po',
  Other_Symbol: 'So',
  Paragraph_Separator: 'Zp',
  Private_Use: 'Co',
  Punctuation: 'P',
  punct: 'P',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Spacing_Mark: 'Mc',
  Surrogate: 'Cs',
  Symbol: 'S',
  Titlecase_Letter: 'Lt',
  Unassigned: 'Cn',
  Uppercase_Letter: 'Lu',
}

// `C` / `Other` is left out on purpose: RE2's `C` omits unassigned code points (ECMAScript's
// includes them), so the two would disagree.
const SHORT = new Set(Object.values(CATEGORY))

/** Binary properties with a fixed, version-independent set of code points. */
const BINARY: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  Any: [[0, 0x10ffff]],
  ASCII: [[0, 0x7f]],
  ASCII_Hex_Digit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
}

/** What `\p{name}` reads as: an RE2 `\p{…}` name, class ranges, or undefined (unsupported). */
export type PropertyReading =
  | { readonly name: string }
  | { readonly ranges: readonly (readonly [number, number])[] }
  | undefined

/** Reads the text between the braces of `\p{…}` (already accepted by the `u`-flag parser). */
export function readUnicodeProperty(text: string): PropertyReading {
  const equals = text.indexOf('=')
  if (equals < 0) {
    if (SHORT.has(text)) return { name: text }
    if (CATEGORY[text] !== undefined) return { name: CATEGORY[text] }
    const ranges = BINARY[text]
    return ranges === undefined ? undefined : { ranges }
  }
  const key = text.slice(0, equals)
  const value = text.slice(equals + 1)
  if (key === 'General_Category' || key === 'gc') return readUnicodeProperty(value)
  // Script names: RE2 knows the long ones (`Greek`); an alias it lacks fails to compile (refused).
  if (key === 'Script' || key === 'sc') return /^[A-Z][A-Za-z_]*$/.test(value) ? { name: value } : undefined
  return undefined
}
