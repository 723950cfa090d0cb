/**
 * The demo's command line: strict flags (anything unknown is a usage error, never ignored),
 * `--help`, and the one-line errors the CLI prints instead of stack traces.
 */
import { parseArgs } from 'node:util'
import type { ToolPresentationMode } from '@dsh/tools-core'
import { DEMO_PROVIDER_NAMES, isDemoProviderName } from './provider-names'
import type { CodeLanguage } from './task'

/** What the command line asked for. */
export interface DemoOptions {
  readonly help: boolean
  readonly modes: readonly ToolPresentationMode[]
  /** The language of Code Mode programs (`--lang`). */
  readonly lang: CodeLanguage
  readonly openai: boolean
  /** `--provider`: the stack the scripted turns travel through (a `DEMO_PROVIDER_NAMES` name). */
  readonly provider?: string
  readonly color: boolean
  readonly keep: boolean
}

/** A mistake the user can fix (bad flag, missing environment): printed as one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** What each `--mode` value runs: `all` is a native run, then a Code Mode run. */
const MODES: Record<string, readonly ToolPresentationMode[]> = {
  native: ['native'],
  code: ['code'],
  both: ['both'],
  all: ['native', 'code'],
}

/** The values `--mode` accepts, in the order the docs list them (the docs check compares them). */
export const DEMO_MODES: readonly string[] = Object.freeze(Object.keys(MODES))

/** `pnpm demo -- --help`. */
export const USAGE = `Usage: pnpm demo [-- options]

Fix an off-by-one bug in a temp copy of examples/agent-demo/fixture/mini-pager with the real
dsh-tools, printing every call as its UI card, the policy decisions and a timing summary.
Exits 0 only when the fixture's tests pass after every run.

Options:
  --mode <mode>   ${DEMO_MODES.join(' | ')} (default all: a native run, then a Code Mode run)
  --lang <lang>   typescript | python (default typescript): the language of the Code Mode
                  program; python runs it on @dsh/code-runtime-pyodide (a Pyodide interpreter)
  --openai        use an OpenAI-compatible endpoint instead of the scripted model
                  (needs OPENAI_API_KEY and OPENAI_BASE_URL; OPENAI_MODEL is optional)
  --provider <p>  ${DEMO_PROVIDER_NAMES.join(' | ')}: the scripted turns
                  through that stack — a provider's wire format (tool list, calls, results)
                  through @dsh/tools-providers, or ai-sdk: the Vercel AI SDK's generateText
                  over @dsh/tools-ai-sdk
  --no-color      no ANSI colours (also off when stdout is not a TTY or NO_COLOR is set)
  --keep          keep the temp workspaces and print their paths
  -h, --help      print this text and exit`

/**
 * Parse the demo's arguments (a leading `--`, as `pnpm demo -- …` may pass it, is skipped).
 *
 * @throws {UsageError} on an unknown flag, a missing or invalid `--mode` value, or a positional.
 */
export function parseDemoOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  isTTY = process.stdout.isTTY === true,
): DemoOptions {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv[0] === '--' ? argv.slice(1) : argv).values
  } catch (error) {
    // node's messages are already one clear sentence ("Unknown option '--x'. …")
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const mode = values.mode ?? 'all'
  const modes = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined
  if (!modes) {
    const choices = `${DEMO_MODES.slice(0, -1).join(', ')} or ${DEMO_MODES.at(-1)}`
    throw new UsageError(`--mode must be ${choices} (got '${mode}')`)
  }
  const lang = values.lang ?? 'typescript'
  if (lang !== 'typescript' && lang !== 'python') {
    throw new UsageError(`--lang must be typescript or python (got '${lang}')`)
  }
  const provider = values.provider
  if (provider !== undefined && !isDemoProviderName(provider)) {
    const names = DEMO_PROVIDER_NAMES
    throw new UsageError(
      `--provider must be ${names.slice(0, -1).join(', ')} or ${names.at(-1)} (got '${provider}')`,
    )
  }
  if (provider !== undefined && values.openai === true) {
    throw new UsageError('--provider replays scripted turns; it does not combine with --openai')
  }
  return {
    help: values.help === true,
    modes,
    lang,
    openai: values.openai === true,
    ...(provider === undefined ? {} : { provider }),
    color: values['no-color'] !== true && isTTY && !env['NO_COLOR'],
    keep: values.keep === true,
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      mode: { type: 'string' },
      lang: { type: 'string' },
      openai: { type: 'boolean' },
      provider: { type: 'string' },
      'no-color': { type: 'boolean' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
