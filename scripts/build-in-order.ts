/**
 * Builds workspace packages one turbo task at a time, in dependency order, `slots` at once, and
 * says so: a `built <name> in <s>` line per package and a heartbeat line whenever nothing was
 * printed for `quietMs`, so a first build (minutes on 2 cores) never looks hung. Each package is
 * `turbo run build --filter=<name> --only` (turbo's cache still applies); when one fails, its
 * full turbo output is printed and no further package starts.
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type BuildNode, builtLine, heartbeatLine, readyToBuild } from './build-plan'

/** How to start turbo, e.g. `['pnpm', 'exec', 'turbo']`, and where. */
export interface BuildOptions {
  readonly turbo: readonly string[]
  readonly cwd: string
  readonly slots: number
  readonly print: (line: string) => void
  /** Longest stretch without a printed line before a heartbeat (default 8 s). */
  readonly quietMs?: number
}

/** The build graph of the packages in `dirs`: each one's workspace dependencies among them. */
export async function buildNodes(dirs: readonly string[]): Promise<BuildNode[]> {
  const manifests = await Promise.all(
    dirs.map(
      async (dir) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>,
    ),
  )
  const names = new Set(manifests.map((manifest) => manifest['name'] as string))
  return manifests.map((manifest) => {
    const deps = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
      Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
    )
    return { name: manifest['name'] as string, needs: [...new Set(deps.filter((dep) => names.has(dep)))] }
  })
}

interface Outcome {
  readonly name: string
  readonly ok: boolean
  readonly output: string
}

function turboBuild(name: string, options: BuildOptions): Promise<Outcome> {
  const [file, ...args] = [
    ...options.turbo,
    'run',
    'build',
    `--filter=${name}`,
    '--only',
    '--output-logs=full',
  ]
  return new Promise((resolve) => {
    const child = spawn(file!, args, {
      cwd: options.cwd,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', (error) => resolve({ name, ok: false, output: `${output}${error.message}\n` }))
    child.on('close', (code) => resolve({ name, ok: code === 0, output }))
  })
}

/** Build every node in dependency order; resolves `true` when all built. */
export async function buildInOrder(nodes: readonly BuildNode[], options: BuildOptions): Promise<boolean> {
  const quietMs = options.quietMs ?? 8000
  let lastPrinted = Date.now()
  const print = (line: string) => {
    lastPrinted = Date.now()
    options.print(line)
  }
  const done = new Set<string>()
  const running = new Map<string, number>()
  const pending = new Map<string, Promise<Outcome>>()
  const heartbeat = setInterval(() => {
    if (running.size > 0 && Date.now() - lastPrinted >= quietMs) print(heartbeatLine(running, Date.now()))
  }, 500)
  let failed: Outcome | undefined
  try {
    for (;;) {
      if (failed === undefined) {
        for (const name of readyToBuild(nodes, done, new Set(running.keys()), options.slots)) {
          running.set(name, Date.now())
          pending.set(name, turboBuild(name, options))
        }
      }
      if (pending.size === 0) break
      const outcome = await Promise.race(pending.values())
      const startedAt = running.get(outcome.name) ?? Date.now()
      pending.delete(outcome.name)
      running.delete(outcome.name)
      if (!outcome.ok) {
        failed ??= outcome
        print(
          `failed to build ${outcome.name} after ${((Date.now() - startedAt) / 1000).toFixed(1)} s; turbo said:`,
        )
        print(outcome.output.trimEnd())
        continue
      }
      done.add(outcome.name)
      print(builtLine(outcome.name, Date.now() - startedAt, /\bcache hit\b/.test(outcome.output)))
    }
  } finally {
    clearInterval(heartbeat)
  }
  return failed === undefined
}
