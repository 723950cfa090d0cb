/**
 * The policy's config, declared with `configSchema` (cordis validates it before `apply`).
 */
import { configSchema, type InferConfigInput } from '@dsh/tools-core'

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

/** Config as a user writes it; every field optional (the spec below is its source). */
export type PolicyConfigInput = InferConfigInput<typeof Config>

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

const isRegExp = (value: unknown): value is RegExp => value instanceof RegExp

/** A list of regular expressions: sources, or RegExps (whose source is kept, flags replaced). */
const regexList = (description: string, defaults: readonly string[]) =>
  ({
    type: 'array',
    items: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'host', description: 'a RegExp', is: isRegExp },
      ],
    },
    default: [...defaults],
    description,
  }) as const

/**
 * The plugin's config, declared once with `configSchema`: the validator cordis runs before
 * `apply` (unknown keys refused, defaults filled, every regular expression compiled), the JSON
 * Schema (`Config['~standard'].jsonSchema`) and the README's Config table (`pnpm config-tables`).
 */
export const Config = configSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      askFor: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        default: ['bash', 'write', 'edit'],
        description: 'tools whose calls go to the approval service',
      },
      rules: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: {
            tool: { type: 'string', minLength: 1, required: true, description: "tool name, `'*'` = any" },
            argument: { type: 'string', description: 'argument whose string value `pattern` is tested' },
            pattern: { type: 'string', description: 'regular expression source; absent = any value' },
            approved: { type: 'boolean', required: true, description: 'the decision' },
            reason: { type: 'string', required: true, description: 'why, shown to the model' },
          },
        },
        default: [],
        description: '`{ tool, argument?, pattern?, approved, reason }[]`, first match wins; no match denies',
      },
      denyArguments: regexList('a call with a string argument matching one is denied by the guard', []),
      secretPatterns: regexList('secrets redacted from results (flags `gi`)', DEFAULT_SECRET_PATTERNS),
      replacement: { type: 'string', default: '[REDACTED]', description: 'what a secret is replaced with' },
    },
  },
  {
    check: (config) => [
      ...config.rules.flatMap((rule, index) =>
        regexProblems([rule.pattern ?? ''], ['rules', index, 'pattern']),
      ),
      ...regexProblems(config.denyArguments, ['denyArguments']),
      ...regexProblems(config.secretPatterns, ['secretPatterns']),
    ],
    resolve: (config): PolicyConfig => ({
      ...config,
      denyArguments: config.denyArguments.map((item) => regex(item, '')),
      secretPatterns: config.secretPatterns.map((item) => regex(item, 'gi')),
    }),
  },
)

/** A RegExp from a source or a RegExp (an already validated config keeps its source). */
function regex(item: string | RegExp, flags: string): RegExp {
  return new RegExp(typeof item === 'string' ? item : item.source, flags)
}

function regexProblems(list: readonly (string | RegExp)[], path: readonly (string | number)[]) {
  return list.flatMap((item, index) => {
    try {
      regex(item, '')
      return []
    } catch (error) {
      const at = path.at(-1) === 'pattern' ? path : [...path, index]
      return [{ path: at, message: `invalid regular expression: ${(error as Error).message}` }]
    }
  })
}
