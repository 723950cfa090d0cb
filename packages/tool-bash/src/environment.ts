/**
 * The child environment is built from an allow-list, never inherited wholesale: a variable
 * the list does not name does not reach the shell.
 */

/**
 * The default allow-list: what a shell needs to find programs, pick a locale and draw to a
 * terminal. Entries ending in `*` match by prefix (`LC_*`).
 */
export const DEFAULT_ENV_ALLOW_LIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TZ',
  'TMPDIR',
])

const CREDENTIAL_NAME =
  /TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|_KEY$|^KEY$|AUTH|COOKIE|SESSION|^AWS_|^AZURE_|^GCP_|^GOOGLE_APPLICATION/i

/**
 * True for names that look like they hold a credential (`*_TOKEN`, `*_KEY`, `*SECRET*`,
 * `AWS_*`, …). Such a name is only passed when the allow-list names it exactly; a prefix
 * pattern never lets it through.
 *
 * @param name — an environment variable name.
 */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name)
}

/**
 * Whether `name` is admitted by `allowList`. Exact entries admit their name; `PREFIX*` entries
 * admit names with that prefix unless the name looks like a credential.
 *
 * @param name — an environment variable name.
 * @param allowList — exact names and `PREFIX*` patterns.
 */
export function isAllowedEnvName(name: string, allowList: readonly string[]): boolean {
  for (const entry of allowList) {
    if (entry.endsWith('*')) {
      if (name.startsWith(entry.slice(0, -1)) && !isCredentialName(name)) return true
    } else if (entry === name) {
      return true
    }
  }
  return false
}

/**
 * Build the environment of a child shell: the allow-listed variables of `source`, then the
 * explicit `extra` variables (which win, and are passed whatever their name).
 *
 * @param source — the host environment, usually `process.env`.
 * @param allowList — exact names and `PREFIX*` patterns to inherit.
 * @param extra — variables the harness author sets explicitly.
 */
export function buildEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  allowList: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isAllowedEnvName(name, allowList)) env[name] = value
  }
  return Object.assign(env, extra)
}
