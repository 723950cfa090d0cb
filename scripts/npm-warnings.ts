/**
 * npm prints its warnings (EBADENGINE, deprecations, peer conflicts) on stderr and still exits 0.
 * `pnpm test:pack` fails on every one, except those listed here with the reason they are
 * tolerated.
 */

const AI_SDK_NODE_22 =
  'ai 7 (and @ai-sdk/gateway, /provider, /provider-utils with it) declares Node ≥ 22; ' +
  "@dsh/tools-ai-sdk's tests against the real ai 7.0.173 pass on Node 20.20, and the engine is the " +
  "AI SDK's own requirement, stated in the tools-ai-sdk README"

/**
 * Dependencies whose `engines` refuse Node 20 although the package that needs them runs on it,
 * each with the reason. A README line installing one is run without `--engine-strict`, and only
 * the EBADENGINE warnings naming these packages are tolerated.
 */
export const ALLOWED_BAD_ENGINES: Readonly<Record<string, string>> = {
  '@anthropic-ai/sandbox-runtime':
    "0.0.79+ declares Node ≥ 22.12; @dsh/tool-bash's sandbox tests pass with it on Node 20.20, and " +
    'pinning 0.0.78 (the last allowing Node 20) would drop five releases of sandbox fixes: an open ' +
    'decision, not silently taken here',
  // @dsh/tools-ai-sdk's peer `ai` 7 and the @ai-sdk packages it brings declare Node ≥ 22.
  ai: AI_SDK_NODE_22,
  '@ai-sdk/gateway': AI_SDK_NODE_22,
  '@ai-sdk/provider': AI_SDK_NODE_22,
  '@ai-sdk/provider-utils': AI_SDK_NODE_22,
}

/** The packages an EBADENGINE warning block of `stderr` names (`package: 'name@1.2.3'`). */
export function badEnginePackages(stderr: string): string[] {
  const names = [...stderr.matchAll(/^npm warn EBADENGINE\s+package: '(@?[^@']+)@[^']*'/gim)].map(
    (m) => m[1]!,
  )
  return [...new Set(names)].sort()
}

/** Which of `names` need the engine exemption (run their install without `--engine-strict`). */
export function engineExempt(
  names: readonly string[],
  exempt: Readonly<Record<string, string>>,
  dependenciesOf: (name: string) => readonly string[],
): string[] {
  return Object.keys(exempt).filter((dep) => names.some((name) => dependenciesOf(name).includes(dep)))
}

/**
 * The `npm warn` lines of `stderr` that are not tolerated: EBADENGINE lines are tolerated only
 * when every package they name is in `allowedEngines`.
 */
export function npmWarnings(
  stderr: string,
  allowedEngines: Readonly<Record<string, string>> = ALLOWED_BAD_ENGINES,
): string[] {
  const engineOk = badEnginePackages(stderr).every((name) => name in allowedEngines)
  return stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => /^npm warn/i.test(line))
    .filter((line) => !(engineOk && /^npm warn EBADENGINE/i.test(line)))
}
