/**
 * Tool names every major model provider accepts: ASCII letters, digits, `_` and `-`, 1 to 64
 * characters. Refusing anything else at registration keeps the failure next to its cause.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** Why `name` is not a valid tool name, or `undefined` when it is. */
export function toolNameProblem(name: string): string | undefined {
  if (TOOL_NAME_PATTERN.test(name)) return undefined
  const shown = name.length > 80 ? `${JSON.stringify(name.slice(0, 80))}…` : JSON.stringify(name)
  return `invalid tool name ${shown}: names must match ^[A-Za-z0-9_-]{1,64}$ (ASCII letters, digits, "_" and "-", 1–64 characters), the set every major model provider accepts`
}
