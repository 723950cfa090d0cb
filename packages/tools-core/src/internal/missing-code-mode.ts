/**
 * What to load when a non-native presentation mode has no Code Mode provider. Code Mode is two
 * plugins: `@dsh/tools-codemode` (the `run_code` transport and SDK) and a code runtime that runs
 * the programs; naming only one of them sends a newcomer to the wrong package.
 */
export const LOAD_CODE_MODE =
  'load @dsh/tools-codemode and a code runtime (@dsh/code-runtime-worker-thread for TypeScript or @dsh/code-runtime-pyodide for Python)'

/** The assembly failure for `mode` (`code` or `both`) with no provider installed. */
export function missingProviderMessage(mode: string): string {
  return `presentation mode \`${mode}\` needs a Code Mode provider, but none is installed: ${LOAD_CODE_MODE}`
}

/** The UNKNOWN_TOOL message for a `run_code` call in a non-native mode with no provider installed. */
export function missingTransportMessage(mode: string): string {
  return `\`run_code\` is not available: presentation mode \`${mode}\` needs a Code Mode provider, but none is installed (${LOAD_CODE_MODE})`
}
