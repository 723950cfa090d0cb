/**
 * Doc comments for generated SDK text. Every piece of text here comes from tool metadata and is
 * treated as hostile: it must not end its comment or docstring, break the surrounding source, or
 * smuggle control characters into the prompt. One sanitiser serves both languages.
 */

// Line breaks of any convention (JS also ends lines at U+2028/U+2029; Python and Markdown
// treat \v, \f and NEL variously) all become real line breaks under our own prefix.
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/
// Other C0/C1 controls (NUL breaks Python source), bidi overrides (the "Trojan source" trick)
// and lone surrogates (not encodable as UTF-8) are replaced.
const UNSAFE =
  /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Splits hostile text into clean lines: no control characters, no trailing blanks. */
export function docLines(text: string): string[] {
  return text
    .replace(UNSAFE, '\uFFFD')
    .split(LINE_BREAK)
    .map((line) => line.replace(/\s+$/, ''))
}

/**
 * A TypeScript `/** … *\/` comment at indentation `pad`. `*\/` is broken as `*\/`; every line
 * carries the ` * ` prefix, so no text can start a line of the surrounding document.
 */
export function tsDocComment(text: string, pad: string): string {
  const lines = docLines(text.replace(/\*\//g, '*\\/'))
  if (lines.length === 1) return `${pad}/** ${lines[0]} */\n`
  return `${pad}/**\n${lines.map((line) => `${pad} *${line.length > 0 ? ` ${line}` : ''}`).join('\n')}\n${pad} */\n`
}

/** Python `#` comment lines at indentation `pad`. */
export function pyComment(text: string, pad: string): string {
  return docLines(text)
    .map((line) => `${pad}#${line.length > 0 ? ` ${line}` : ''}\n`)
    .join('')
}

/**
 * A Python docstring at indentation `pad`. Backslashes are doubled and every quote that is
 * followed by another quote is escaped, so no run of three unescaped quotes can occur; a
 * trailing quote is kept off the closing delimiter. Continuation lines are indented by `pad`.
 */
export function pyDocstring(text: string, pad: string): string {
  const lines = docLines(text).map((line) => line.replace(/\\/g, '\\\\').replace(/"(?=")/g, '\\"'))
  if (lines.length === 1) {
    const line = lines[0]!
    return `${pad}"""${line}${line.endsWith('"') ? ' ' : ''}"""\n`
  }
  const body = lines.map((line, i) => (i === 0 || line.length === 0 ? line : `${pad}${line}`)).join('\n')
  return `${pad}"""${body}\n${pad}"""\n`
}

/** Characters JSON leaves raw that must not appear raw in a prompt or a source line. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * A double-quoted string literal valid in both TypeScript and Python: `JSON.stringify`, plus
 * `\uXXXX` escapes for DEL, C1 controls, U+2028/U+2029 and bidi controls, which JSON keeps raw.
 */
export function quotedString(text: string): string {
  return JSON.stringify(text).replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
