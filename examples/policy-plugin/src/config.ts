/**
 * The policy's config and its Standard Schema validator (cordis validates it before `apply`).
 */

/** One approval rule. The first rule whose `tool` matches (and whose `pattern` matches the argument) wins. */
export interface ApprovalRule {
  /** Tool name, or `*` for any tool. */
  readonly tool: string
  /** Argument whose string value `pattern` is tested against (e.g. `command`, `file_path`). */
  readonly argument?: string
  /** Regular expression source; absent = any value. */
  readonly pattern?: string
  readonly approved: boolean
  readonly reason: string
}

/** Config as a user writes it; every field optional. */
export interface PolicyConfigInput {
  /** Tools whose calls go to the approval service (`ask`). Default: bash, write, edit. */
  readonly askFor?: readonly string[]
  /** Approval rules; when none matches, the request is denied. */
  readonly rules?: readonly ApprovalRule[]
  /** Regex sources: a call with any string argument matching one is denied by the guard. */
  readonly denyArguments?: readonly (string | RegExp)[]
  /** Regex sources of secrets to redact from successful results (flags `gi`). */
  readonly secretPatterns?: readonly (string | RegExp)[]
  /** What a redacted secret is replaced with. */
  readonly replacement?: string
}

/** The validated config. */
export interface PolicyConfig {
  readonly askFor: readonly string[]
  readonly rules: readonly ApprovalRule[]
  readonly denyArguments: readonly RegExp[]
  readonly secretPatterns: readonly RegExp[]
  readonly replacement: string
}

/** Secrets redacted by default: API keys in common formats, private keys, `password=`-style assignments. */
export const DEFAULT_SECRET_PATTERNS: readonly string[] = [
  'sk-[A-Za-z0-9_-]{16,}',
  'gh[pousr]_[A-Za-z0-9]{30,}',
  'AKIA[0-9A-Z]{16}',
  'xox[abpr]-[A-Za-z0-9-]{10,}',
  '-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----',
  '(?<=\\b(?:password|passwd|secret|token|api[_-]?key)\\s*[=:]\\s*)[^\\s\'"]+',
]

type Issue = { readonly message: string; readonly path?: readonly PropertyKey[] }

function regexes(
  value: unknown,
  key: string,
  fallback: readonly string[],
  flags: string,
  issues: Issue[],
): RegExp[] {
  const list = value ?? fallback
  const usable = (item: unknown) => item instanceof RegExp || (typeof item === 'string' && item !== '')
  if (!Array.isArray(list) || !list.every(usable)) {
    issues.push({ message: `${key} must be an array of regular expression sources`, path: [key] })
    return []
  }
  const result: RegExp[] = []
  for (const [index, item] of (list as (string | RegExp)[]).entries()) {
    try {
      // a RegExp (an already validated config) keeps its source and gets this field's flags
      result.push(new RegExp(typeof item === 'string' ? item : item.source, flags))
    } catch (error) {
      issues.push({ message: `invalid regular expression: ${(error as Error).message}`, path: [key, index] })
    }
  }
  return result
}

function rulesOf(value: unknown, issues: Issue[]): ApprovalRule[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    issues.push({ message: 'rules must be an array', path: ['rules'] })
    return []
  }
  value.forEach((rule: Partial<ApprovalRule>, index) => {
    const ok =
      typeof rule === 'object' &&
      rule !== null &&
      typeof rule.tool === 'string' &&
      typeof rule.approved === 'boolean' &&
      typeof rule.reason === 'string' &&
      (rule.argument === undefined || typeof rule.argument === 'string') &&
      (rule.pattern === undefined || typeof rule.pattern === 'string')
    if (!ok)
      issues.push({
        message: 'a rule needs tool, approved and reason (argument, pattern optional)',
        path: ['rules', index],
      })
    else if (rule.pattern !== undefined) regexes([rule.pattern], 'rules', [], '', issues)
  })
  return value as ApprovalRule[]
}

const KNOWN = new Set(['askFor', 'rules', 'denyArguments', 'secretPatterns', 'replacement'])

/** Validate a raw config, filling in defaults. */
export function validatePolicyConfig(input: unknown): { value: PolicyConfig } | { issues: Issue[] } {
  const raw = (input ?? {}) as Record<string, unknown>
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { issues: [{ message: 'config must be an object' }] }
  const issues: Issue[] = []
  for (const key of Object.keys(raw))
    if (!KNOWN.has(key)) issues.push({ message: `unknown config key ${key}`, path: [key] })
  const askFor = raw['askFor'] ?? ['bash', 'write', 'edit']
  if (!Array.isArray(askFor) || !askFor.every((name) => typeof name === 'string')) {
    issues.push({ message: 'askFor must be an array of tool names', path: ['askFor'] })
  }
  const replacement = raw['replacement'] ?? '[REDACTED]'
  if (typeof replacement !== 'string')
    issues.push({ message: 'replacement must be a string', path: ['replacement'] })
  const value: PolicyConfig = {
    askFor: askFor as string[],
    rules: rulesOf(raw['rules'], issues),
    denyArguments: regexes(raw['denyArguments'], 'denyArguments', [], '', issues),
    secretPatterns: regexes(raw['secretPatterns'], 'secretPatterns', DEFAULT_SECRET_PATTERNS, 'gi', issues),
    replacement: replacement as string,
  }
  return issues.length > 0 ? { issues } : { value }
}

/** The Standard Schema (v1) object cordis validates the plugin config with. */
export const Config = {
  '~standard': {
    version: 1 as const,
    vendor: 'example-policy',
    validate: validatePolicyConfig,
    types: undefined as unknown as {
      readonly input: PolicyConfigInput | undefined
      readonly output: PolicyConfig
    },
  },
}
