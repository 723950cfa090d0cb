/**
 * The sandbox planner's worker program, bundled by `scripts/planner-worker-source.ts` into one
 * CommonJS source started with `new Worker(source, { eval: true })`.
 *
 * Everything a sandboxed call must do before and after its process runs happens here, off the
 * host's event loop: `@anthropic-ai/sandbox-runtime`'s wrap (synchronous `which` spawns, file
 * checks, mount-point creation), the scan of the writable roots for protected entries before
 * the call, and the scan after it that moves aside what the command created or changed.
 */
import { join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { ListingCache } from '../protection/listing-cache'
import { changedEntries, moveAside } from '../protection/protection-check'
import { type ProtectedEntry, ProtectionScanError, scanProtectedEntries } from '../protection/protection-scan'
import {
  MAX_HELD_ENTRIES,
  type PlannerReply,
  type PlannerRequest,
  type PlannerWorkerData,
} from './planner-protocol'
import { WorkerSpawner } from './worker-spawner'

type Manager = typeof import('@anthropic-ai/sandbox-runtime').SandboxManager

interface Call {
  readonly controller: AbortController
  readonly roots: readonly string[]
  readonly maxScanEntries: number
  before?: readonly ProtectedEntry[]
}

const port = parentPort!
const calls = new Map<number, Call>()
// Shared by every scan of this process: a directory no call touched is not read again.
const listings = new ListingCache()
const manager: Promise<Manager> = import((workerData as PlannerWorkerData).libraryUrl).then(
  (library: typeof import('@anthropic-ai/sandbox-runtime')) => {
    installBaseConfig(library.SandboxManager)
    return library.SandboxManager
  },
)

/**
 * On every wrap the library also scans `process.cwd()` — the host's — with ripgrep, 3 levels
 * deep by default; from `/` or a home directory that takes seconds. Unless something configured
 * the library already, a base config lowers that to 1 level: this package's own scan covers
 * every writable root, and names no network and no paths, so each call's config decides.
 */
function installBaseConfig(sandbox: Manager): void {
  if (sandbox.getConfig() !== undefined) return
  sandbox.updateConfig({
    network: {},
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    mandatoryDenySearchDepth: 1,
  } as unknown as SandboxRuntimeConfig)
}

const reply = (message: PlannerReply) => port.postMessage(message)
const spawner = new WorkerSpawner((event) => port.postMessage(event))

port.on('message', (request: PlannerRequest) => {
  if (request.type === 'abort') {
    calls.get(request.id)?.controller.abort(new Error('aborted'))
    return
  }
  if (request.type === 'spawn') return spawner.start(request)
  if (request.type === 'ack') return spawner.ack(request.id, request.bytes)
  if (request.type === 'destroy-pipes') return spawner.destroyPipes(request.id)
  const work = request.type === 'prepare' ? prepare(request) : finish(request.id)
  work.then(reply, (error: unknown) =>
    reply({ id: request.id, ok: false, failure: 'wrap', message: (error as Error).message }),
  )
})

async function prepare(request: Extract<PlannerRequest, { type: 'prepare' }>): Promise<PlannerReply> {
  const call: Call = {
    controller: new AbortController(),
    roots: request.roots,
    maxScanEntries: request.maxScanEntries,
  }
  calls.set(request.id, call)
  const signal = call.controller.signal
  const sandbox = await manager
  let held: string[]
  let before: ProtectedEntry[]
  try {
    before = await scanProtectedEntries(request.roots, {
      maxEntries: request.maxScanEntries,
      signal,
      cache: listings,
    })
    held = before.map((entry) => entry.path)
    // A missing top-level `.git` is held by an empty mount point: `git init` and a `gitdir:`
    // pointer fail at once there, instead of being undone after the call.
    const present = new Set(held)
    for (const root of request.roots) {
      const dotGit = join(root, '.git')
      if (!present.has(dotGit)) held.push(dotGit)
    }
    if (held.length > MAX_HELD_ENTRIES) {
      throw new ProtectionScanError(
        `the writable roots hold ${held.length} protected entries, more than ${MAX_HELD_ENTRIES}`,
      )
    }
  } catch (error) {
    calls.delete(request.id)
    if (signal.aborted) return { id: request.id, ok: false, failure: 'aborted', message: 'aborted' }
    return { id: request.id, ok: false, failure: 'protection', message: (error as Error).message }
  }
  const filesystem = request.config.filesystem!
  const config: Partial<SandboxRuntimeConfig> = {
    ...request.config,
    filesystem: { ...filesystem, denyWrite: [...filesystem.denyWrite, ...held] },
  }
  try {
    const wrapped = await sandbox.wrapWithSandbox(request.command, request.shell, config, signal, {
      commandId: request.commandId,
      commandText: request.command,
    })
    call.before = before
    return { id: request.id, ok: true, wrapped }
  } catch (error) {
    // The library gave back its own per-call state when the wrap threw: nothing to finish.
    calls.delete(request.id)
    if (signal.aborted) return { id: request.id, ok: false, failure: 'aborted', message: 'aborted' }
    return { id: request.id, ok: false, failure: 'wrap', message: (error as Error).message }
  }
}

/**
 * After the process has exited: give back the library's per-call state (mount points), then
 * scan the roots again and move aside every protected entry that is new or changed. Runs to the
 * end whatever happened to the call (abort included): the command may have written before it
 * was killed.
 */
async function finish(id: number): Promise<PlannerReply> {
  const call = calls.get(id)
  calls.delete(id)
  // Only a wrapped call is finished; an unknown one means this worker is not the one that
  // planned it (the first died), so what the command wrote cannot be compared.
  if (call?.before === undefined) {
    return { id, ok: true, moved: [], unverified: 'the sandbox planner restarted during the call' }
  }
  ;(await manager).cleanupAfterCommand()
  try {
    const after = await scanProtectedEntries(call.roots, { maxEntries: call.maxScanEntries, cache: listings })
    const changed = await changedEntries(call.before, after)
    return { id, ok: true, moved: await Promise.all(changed.map(moveAside)) }
  } catch (error) {
    // A directory the command made unreadable may hide anything: it is moved aside whole.
    const path = error instanceof ProtectionScanError ? error.path : undefined
    const moved =
      path === undefined
        ? []
        : [await moveAside({ path, kind: 'named', identity: '', directory: true, size: 0, mtimeMs: 0 })]
    return { id, ok: true, moved, unverified: (error as Error).message }
  }
}
