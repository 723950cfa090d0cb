import type { Context } from '@deepseek-ai/cordis'
import type { ToolDefinition } from '@dsh/tools-core'
import { type Tool, ToolSchema } from '@modelcontextprotocol/sdk/types.js'
import { refusedToolEntry } from './gate-server-messages'
import { listServerTools } from './list-server-tools'
import { buildMcpToolDefinition } from './mcp-tool-definition'
import type { ServerConnection } from './server-connection'
import { assignToolNames } from './tool-names'

/** One registered server tool. */
interface Registration {
  readonly local: string
  readonly fingerprint: string
  readonly definition: ToolDefinition
  readonly dispose: () => void
}

/** What a {@link ServerToolSet} reports and how it names tools. */
export interface ServerToolSetOptions {
  readonly prefix: string
  readonly trustAnnotations: boolean
  /** Whether anyone observes a call's progress (see `McpToolBinding.progressObserved`). */
  progressObserved(): boolean
  /** One warning, naming the server and the tool where there is one. */
  warn(message: string, tool?: string): void
}

const nameOf = (entry: unknown): string | undefined =>
  typeof (entry as { name?: unknown } | null)?.name === 'string'
    ? (entry as { name: string }).name
    : undefined

function fingerprintOf(tool: Tool): string {
  try {
    return JSON.stringify(tool)
  } catch {
    return String(Math.random())
  }
}

/**
 * The server's tools as registrations in the plugin's scope, kept in step with `tools/list`:
 * `sync()` lists (all pages), parses each entry on its own, names them, and registers what is
 * new or changed and disposes what is gone. Syncs are serialized and coalesced: at most one
 * runs and one waits, so a burst of `list_changed` notifications (or reconnects) costs at most
 * two listings, and every caller's sync starts after its request.
 */
export class ServerToolSet {
  #ctx: Context
  #connection: ServerConnection
  #options: ServerToolSetOptions
  #current = new Map<string, Registration>()
  #definitions = new WeakSet<ToolDefinition>()
  /** The listing running now, and the one that will run after it (shared by every caller meanwhile). */
  #running: Promise<void> | undefined
  #waiting: Promise<void> | undefined
  #stopped = false

  constructor(ctx: Context, connection: ServerConnection, options: ServerToolSetOptions) {
    this.#ctx = ctx
    this.#connection = connection
    this.#options = options
  }

  /** Whether `definition` is one of this server's live registrations (identity, not name). */
  owns(definition: ToolDefinition | undefined): boolean {
    return definition !== undefined && this.#definitions.has(definition)
  }

  /** Re-list and re-register. Rejects with the listing failure; earlier registrations stay. */
  sync(): Promise<void> {
    if (this.#waiting !== undefined) return this.#waiting
    if (this.#running === undefined) return this.#start()
    this.#waiting = this.#running.then(
      () => this.#start(),
      () => this.#start(),
    )
    return this.#waiting
  }

  /** Run one listing now (nothing else is running). */
  #start(): Promise<void> {
    this.#waiting = undefined
    const run = this.#syncOnce()
    this.#running = run
    const done = () => {
      if (this.#running === run) this.#running = undefined
    }
    run.then(done, done)
    return run
  }

  /** Stop reacting to notifications (the plugin is being disposed). */
  stop(): void {
    this.#stopped = true
  }

  async #syncOnce(): Promise<void> {
    if (this.#stopped) return
    const listed = await listServerTools(this.#connection)
    if (this.#stopped) return
    if (listed.truncated !== undefined)
      this.#options.warn(`only part of tools/list was used: ${listed.truncated}`)
    const tools = new Map<string, Tool>()
    listed.entries.forEach((entry, index) => {
      const label = nameOf(entry) ?? `#${index}`
      const refused = refusedToolEntry(entry)
      if (refused !== undefined) {
        this.#options.warn(
          `not registered: its tools/list entry exceeds the client's limits: ${refused}`,
          label,
        )
        return
      }
      const parsed = ToolSchema.safeParse(entry)
      if (!parsed.success)
        this.#options.warn(`malformed tools/list entry: ${parsed.error.message.slice(0, 500)}`, label)
      else if (tools.has(parsed.data.name)) this.#options.warn('listed twice; the first entry is used', label)
      else tools.set(parsed.data.name, parsed.data)
    })
    const { names, renamed } = assignToolNames(this.#options.prefix, tools.keys())
    for (const { remote, local, reason } of renamed) {
      this.#options.warn(
        `registered as "${local}" (${reason === 'collision' ? 'name collision after sanitizing' : 'sanitized'})`,
        remote,
      )
    }
    for (const [remote, registration] of this.#current) {
      const tool = tools.get(remote)
      if (
        tool === undefined ||
        names.get(remote) !== registration.local ||
        fingerprintOf(tool) !== registration.fingerprint
      ) {
        this.#current.delete(remote)
        this.#definitions.delete(registration.definition)
        registration.dispose()
      }
    }
    for (const [remote, tool] of tools) {
      if (!this.#current.has(remote)) this.#register(tool, names.get(remote)!)
    }
  }

  #register(tool: Tool, local: string): void {
    const build = buildMcpToolDefinition(tool, {
      local,
      connection: this.#connection,
      trustAnnotations: this.#options.trustAnnotations,
      progressObserved: this.#options.progressObserved,
      // By the server's name: a tool re-registered with a changed schema is still listed.
      listed: () => this.#current.has(tool.name),
    })
    if ('refused' in build) {
      this.#options.warn(`not registered: ${build.refused}`, tool.name)
      return
    }
    for (const note of build.notes) this.#options.warn(note, tool.name)
    try {
      const dispose = this.#ctx.tools.register(build.definition)
      this.#current.set(tool.name, {
        local,
        fingerprint: fingerprintOf(tool),
        definition: build.definition,
        dispose,
      })
      this.#definitions.add(build.definition)
    } catch (error) {
      this.#options.warn(
        `not registered: ${error instanceof Error ? error.message : String(error)}`,
        tool.name,
      )
    }
  }
}
