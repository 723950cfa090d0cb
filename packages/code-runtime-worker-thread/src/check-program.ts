/**
 * Syntactic refusal of `import()`. On Node 20 a dynamic import inside a `vm` context always
 * rejects with an error object built in the worker's privileged realm — a handle from which
 * that realm's `Function` constructor is one property away — whatever `importModuleDynamically`
 * does. So programs that contain an `ImportExpression` are refused before they reach a worker.
 * The check parses exactly the text the worker will compile (the stripped, wrapped program)
 * with acorn, as a script, so no tokenizing shortcut can disagree with V8 about what is code.
 *
 * The same parse checks the wrapping held: a program that closes the function it is wrapped in
 * (`return 1 })\n;(async () => {`) would otherwise run statements as top-level script code, and
 * the worker would run some other function than the program's body.
 */
import { parse } from 'acorn'

/** `undefined` when the program may run, otherwise why it was refused. */
export function checkProgram(source: string): string | undefined {
  let ast: unknown
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'script', locations: true })
  } catch (error) {
    const message = (error as { message?: unknown }).message
    return `SyntaxError: ${typeof message === 'string' ? message.replace(/\((\d+):(\d+)\)$/, (_, line: string, column: string) => `(line ${Number(line) - 1}, column ${column})`) : 'the program could not be parsed'}`
  }
  if (!isOneWrappedFunction(ast, source.length)) {
    return 'SyntaxError: the program closes the function it runs in (a `})` with no matching `{`); write it as the body of one async function'
  }
  const stack: unknown[] = [ast]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null) continue
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item)
      continue
    }
    const record = node as { type?: unknown; loc?: { start?: { line?: number; column?: number } } }
    if (record.type === 'ImportExpression') {
      const line = (record.loc?.start?.line ?? 2) - 1
      return `import() is not available in run_code programs (line ${line}, column ${record.loc?.start?.column ?? 0})`
    }
    for (const key in record) {
      if (key === 'loc' || key === 'start' || key === 'end') continue
      const value = (record as Record<string, unknown>)[key]
      if (typeof value === 'object' && value !== null) stack.push(value)
    }
  }
  return undefined
}

/** Whether the script is exactly the wrapper's one parenthesized function, spanning the source. */
function isOneWrappedFunction(ast: unknown, length: number): boolean {
  const body = (ast as { body?: unknown }).body
  if (!Array.isArray(body) || body.length !== 1) return false
  const statement = body[0] as {
    type?: unknown
    expression?: { type?: unknown; start?: unknown; end?: unknown }
  }
  const fn = statement.expression
  // `(async () => {\n…\n})`: the function starts after the opening parenthesis and ends before
  // the closing one, which are the source's first and last characters.
  return (
    statement.type === 'ExpressionStatement' &&
    fn?.type === 'ArrowFunctionExpression' &&
    fn.start === 1 &&
    fn.end === length - 1
  )
}
