/**
 * The program as the worker compiles it: the body of an async arrow function, so top-level
 * `return` and `await` parse. Strip-only mode blanks types in place, so line and column numbers
 * survive: line N of the program is line N + 1 of the wrapped source.
 */

/** Wrap the program as an async arrow function expression. */
export function wrapProgram(code: string): string {
  return `(async () => {\n${code}\n})`
}
