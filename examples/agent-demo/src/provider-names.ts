/**
 * The `--provider` values, in the order `--help` lists them: a module of its own, so parsing the
 * command line (and `--help`, and a usage error) answers without loading any provider's stack.
 * `provider-table.ts` holds one entry per name.
 */
export const DEMO_PROVIDER_NAMES = Object.freeze([
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'ai-sdk',
] as const)

/** One `--provider` value. */
export type DemoProviderName = (typeof DEMO_PROVIDER_NAMES)[number]

/** Whether `name` is a `--provider` value. */
export function isDemoProviderName(name: string): name is DemoProviderName {
  return (DEMO_PROVIDER_NAMES as readonly string[]).includes(name)
}
