import { type Context, Service } from '@deepseek-ai/cordis'
import { assembleTools } from './assembly'
import { asDurable } from './durable/durable-approval'
import { type ResumeOptions, resumeTicket } from './durable/resume-ticket'
import { isResumerKind, type TicketResumer, ticketKind } from './durable/ticket-resumer'
import {
  RuntimeDisposedError,
  StoreUnavailableError,
  ToolAbortedError,
  ToolRegistrationError,
} from './errors'
import './events' // the cordis `Events` augmentation (tools/* and system-prompt/assemble)
import { DeferredTools } from './deferred/deferred-tools'
import { builtinTools } from './internal/builtin-tools'
import { type CompileOptions, compileTool } from './internal/compiled-tool'
import { hookTableOf } from './internal/listeners'
import { ownerLabel } from './internal/retired-tools'
import { readScopeKey } from './internal/scope-key'
import { CallLifetimes } from './lifetime/call-lifetimes'
import { executeCall } from './pipeline/execute-call'
import { failureOf } from './pipeline/results'
import type { PipelineRuntime } from './pipeline/tool-call'
import { assertMode, RESERVED_TOOL_NAME, ToolRegistry } from './registry'
import { resolvedResultBudget } from './result-budget/config'
import { ResultBudget } from './result-budget/result-budget'
import { resolveRuntimeConfig, type ToolRuntimeConfig, ToolRuntimeConfigSchema } from './runtime-config'
import { executeBatch } from './schedule/execute-batch'
import { executionModeOf } from './schedule/execution-mode'
import type { ToolStateStore } from './store/tool-state-store'
import type {
  ApprovalService,
  AssembleOptions,
  CodeModeProvider,
  ExecuteBatchOptions,
  ScopeKey,
  ToolAssembly,
  ToolDeferral,
  ToolDefinition,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolGuard,
  ToolPresentationMode,
  ToolRestriction,
  ToolSchema,
} from './types'

declare module '@deepseek-ai/cordis' {
  interface Context {
    tools: ToolRuntime
  }
}

const STATE = Symbol('dsh-tools.runtime')

interface RuntimeState extends PipelineRuntime {
  readonly ctx: Context
  readonly deferred: DeferredTools
  /** How every registration's schemas are compiled (the `formats` config). */
  readonly compile: CompileOptions
  /** The calls in flight, and what ends them (disposal). */
  readonly lifetimes: CallLifetimes
  /** Resumers of ticket kinds other than `apr`, by kind (`provideResumer`). */
  readonly resumers: Map<string, TicketResumer>
}

function scopeKeyOf(self: ToolRuntime, what: string): ScopeKey {
  const key = readScopeKey(self.ctx)
  if (key === undefined) throw new ToolRegistrationError(`${what}() must be called from an agent scope's ctx`)
  return key
}

/** What a context is, for messages: its agent scope, or a plain (plugin) context. */
function contextLabel(ctx: unknown): string {
  const key = readScopeKey(ctx)
  return key === undefined ? 'the context calling ctx.tools' : `agent scope \`${key}\``
}

/** Throw `RUNTIME_DISPOSED` when the runtime is gone (reads: one field check, no proxy walk). */
function assertRuntimeLive(self: ToolRuntime, method: string): void {
  if (self[STATE].lifetimes.disposed !== undefined)
    throw new RuntimeDisposedError(`ctx.tools.${method}(): the tool runtime was disposed`)
}

/** Throw `RUNTIME_DISPOSED` when the runtime, or the context `method` registers through, is gone. */
function assertLive(self: ToolRuntime, method: string): void {
  assertRuntimeLive(self, method)
  if (self.ctx.fiber.uid === null)
    throw new RuntimeDisposedError(`ctx.tools.${method}(): ${contextLabel(self.ctx)} was disposed`)
}

function own(self: ToolRuntime, effect: () => () => void, label: string): () => void {
  let dispose: () => unknown
  try {
    dispose = self.ctx.effect(effect, label)
  } catch (error) {
    // cordis refuses effects on a fiber that is unloading or gone: say which one, and why.
    if ((error as { code?: unknown } | null)?.code !== 'INACTIVE_EFFECT') throw error
    throw new RuntimeDisposedError(`${label}: ${contextLabel(self.ctx)} was disposed`, { cause: error })
  }
  return () => {
    void dispose()
  }
}

/** The calling ctx's fiber (its disposal ends its calls), or `ABORTED` when it or the runtime is gone. */
function callerFiber(self: ToolRuntime): object | ToolAbortedError {
  return self[STATE].lifetimes.callerOf(self.ctx, contextLabel)
}

/**
 * The tool runtime, a cordis service at `ctx.tools`: the registry (global and per-agent
 * layers), the policy pipeline, batch scheduling and prompt assembly. Everything registered
 * through it returns a disposer and ends with the calling fiber.
 *
 * @example
 * await ctx.plugin(ToolRuntime, { mode: 'native' })
 * ctx.tools.register(myTool)
 * const result = await ctx.tools.execute({ callId: 'c1', name: 'my_tool', arguments: {}, signal })
 */
export type { ToolRuntimeConfig }

export default class ToolRuntime extends Service {
  /**
   * Standard Schema (v1) validator of {@link ToolRuntimeConfig}, also its JSON Schema
   * (`ToolRuntime.Config['~standard'].jsonSchema.input({ target: 'draft-2020-12' })`).
   */
  static Config = ToolRuntimeConfigSchema

  declare ctx: Context
  private readonly [STATE]: RuntimeState

  constructor(ctx: Context, config: ToolRuntimeConfig = {}) {
    super(ctx, 'tools')
    // Like cordis' own core services: keep the caller's ctx visible as `this.ctx` but skip the
    // per-call shadow proxies, so `ctx.tools.execute()` costs a property read, not a proxy tree.
    const tracker = (this as unknown as Record<symbol, { noShadow?: boolean; associate?: string }>)[
      Service.tracker
    ]
    if (tracker) {
      tracker.noShadow = true
      delete tracker.associate
    }
    // Resolved once, here: cordis has validated it already (this is then idempotent), a runtime
    // constructed directly has not. The execute path reads only what is built from it below.
    const { mode, formats, disposeGraceMs, valueLimits, resultBudget } = resolveRuntimeConfig(config)
    const hooks = hookTableOf(ctx)
    const changed = () => {
      try {
        ctx.emit('tools/changed')
      } catch (error) {
        state.report('tools/changed listener failed', error)
      }
    }
    const report = (message: string, error?: unknown) => {
      try {
        if (error === undefined) ctx.logger('dsh-tools').warn(message)
        else ctx.logger('dsh-tools').warn(message, error)
      } catch {}
    }
    const registry = new ToolRegistry(mode, changed, (message) => report(message))
    // Looked up per use, like `approval`: a store plugin may be loaded or disposed at any time.
    // Bound once: reaching `get` through the context proxy costs ~10 µs a time, the bound call ~0.3.
    const getService = ctx.get.bind(ctx) as (name: string) => unknown
    const budget =
      resultBudget === undefined
        ? undefined
        : new ResultBudget(resolvedResultBudget(resultBudget), () => {
            const store = getService('toolStore') as ToolStateStore | undefined
            return typeof store?.create === 'function' ? store : undefined
          })
    const lifetimes = new CallLifetimes(disposeGraceMs)
    // The runtime's own disposal ends every call in flight and refuses later use.
    ctx.effect(() => () => lifetimes.disposeRuntime(), 'tools: end in-flight calls')
    // A deferral change (a rule, a `tool_search` load) reshapes agents' views like a registration.
    const deferred = new DeferredTools(() => registry.changed(), report)
    registry.attach(builtinTools(registry, deferred, budget), deferred)
    const state: RuntimeState = {
      ctx,
      registry,
      deferred,
      budget,
      valueLimits,
      hooks,
      approval: () => {
        const approval = ctx.get('approval') as ApprovalService | undefined
        return typeof approval?.request === 'function' ? approval : undefined
      },
      report,
      compile: Object.freeze(formats === 'assert' ? { formats: 'assert' as const } : {}),
      lifetimes,
      resumers: new Map(),
    }
    this[STATE] = state
  }

  /** Register a tool in the calling scope's layer (global from a plain ctx). Disposed with the caller's fiber. */
  register(definition: ToolDefinition): () => void {
    assertLive(this, 'register')
    const tool = compileTool(definition, this[STATE].compile)
    const agent = readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (tool.name === RESERVED_TOOL_NAME) {
      throw new ToolRegistrationError(`\`${RESERVED_TOOL_NAME}\` is reserved for the Code Mode transport`)
    }
    let removedOnPurpose = false
    const dispose = own(
      this,
      () => {
        const remove = registry.add(tool, agent)
        return () => {
          remove()
          // Gone with its owner, not by its remover: a later call by name says so.
          if (!removedOnPurpose)
            registry.retired.retire(tool.name, agent, `${ownerLabel(this.ctx)} was disposed`)
        }
      },
      `tools.register(${JSON.stringify(tool.name)})`,
    )
    // The registering fiber's disposal ends the tool's calls in flight (a plugin unloading).
    const fiber = callerFiber(this)
    if (!(fiber instanceof ToolAbortedError)) this[STATE].lifetimes.owners.set(tool, fiber)
    return () => {
      removedOnPurpose = true
      dispose()
    }
  }

  /** Add a monotonic synchronous guard (scoped when called from an agent scope). */
  guard(guard: ToolGuard): () => void {
    assertLive(this, 'guard')
    const agent = readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (typeof guard !== 'function') throw new ToolRegistrationError('guard() takes a function')
    return own(this, () => registry.addGuard(guard, agent), 'tools.guard()')
  }

  /** Mask the globals the calling agent sees. Throws from a plain ctx. */
  restrict(filter: ToolRestriction): () => void {
    assertLive(this, 'restrict')
    const agent = scopeKeyOf(this, 'restrict')
    const registry = this[STATE].registry
    return own(this, () => registry.restrict(agent, filter), 'tools.restrict()')
  }

  /**
   * Defer tools (by name, or a predicate over their schemas): they leave native definitions
   * and the Code Mode SDK until `tool_search` loads them. Scoped to the calling agent from a
   * scope ctx, global (every agent) from a plain ctx — like `register` and `guard`.
   */
  defer(filter: ToolDeferral): () => void {
    assertLive(this, 'defer')
    const agent = readScopeKey(this.ctx)
    const deferred = this[STATE].deferred
    return own(this, () => deferred.add(filter, agent), 'tools.defer()')
  }

  /** Choose the calling agent's presentation mode (one per scope). Throws from a plain ctx. */
  presentAs(mode: ToolPresentationMode): () => void {
    assertLive(this, 'presentAs')
    const agent = scopeKeyOf(this, 'presentAs')
    assertMode(mode)
    const registry = this[STATE].registry
    return own(this, () => registry.presentAs(agent, mode), `tools.presentAs(${mode})`)
  }

  /** The definition `name` resolves to for `scope` (default: the calling scope). */
  get(name: string, scope?: ScopeKey): ToolDefinition | undefined {
    assertRuntimeLive(this, 'get')
    const agent = scope ?? readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (name === RESERVED_TOOL_NAME) return registry.view(agent).transport?.definition
    return registry.resolve(name, agent)?.definition
  }

  /** Every schema visible to `scope` (default: the calling scope), without behaviour. */
  schemas(scope?: ScopeKey): ToolSchema[] {
    assertRuntimeLive(this, 'schemas')
    const agent = scope ?? readScopeKey(this.ctx)
    return this[STATE].registry.view(agent).visible.map((tool) => tool.schema)
  }

  /**
   * Run one call through the full pipeline. Failures are results, never throws. A call of a
   * disposed runtime, context or agent scope — in flight or made later — is `ABORTED`, with a
   * message naming what was disposed (see `disposeGraceMs`).
   */
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult> {
    const state = this[STATE]
    if (input?.agent === undefined) {
      const agent = readScopeKey(this.ctx)
      if (agent !== undefined) input = { ...input, agent }
    }
    const owner = callerFiber(this)
    if (owner instanceof ToolAbortedError) return Promise.resolve(failureOf(owner))
    try {
      return executeCall(state, input, owner)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Continue a call that ended `APPROVAL_PENDING` (SPEC §13.2), from any process on the same
   * store: once its ticket is approved the call re-enters the pipeline at the guards and runs
   * exactly once; every later resume returns the stored result. Failures are results
   * (`APPROVAL_PENDING` again, `DENIED`, `APPROVAL_EXPIRED`, `APPROVAL_INVALID`, `UNKNOWN_TOOL`,
   * `OUTCOME_UNKNOWN`, `STORE_UNAVAILABLE`), never throws. An agent scope resumes only its own
   * tickets; a plain ctx (the host) resumes any. A ticket of another kind (`run.…`, a suspended
   * Code Mode run, SPEC §13.3) goes to the resumer registered for its kind (`provideResumer`).
   */
  resume(ticket: string, options: ResumeOptions): Promise<ToolExecutionResult> {
    const signal = options?.signal as AbortSignal | undefined
    if (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')
      return Promise.reject(new TypeError('resume(): `signal` (an AbortSignal) is required'))
    const kind = ticketKind(ticket)
    const resumer = kind === undefined ? undefined : this[STATE].resumers.get(kind)
    if (resumer !== undefined) {
      try {
        return resumer(ticket, { signal, scope: readScopeKey(this.ctx) })
      } catch (error) {
        return Promise.reject(error)
      }
    }
    const service = asDurable(this.ctx.get('approval'))
    if (service === undefined) {
      const missing = new StoreUnavailableError(
        'ctx.tools.resume(): no durable approval service is loaded (plug in @dsh/tool-approvals over a tool state store)',
      )
      return Promise.resolve(failureOf(missing))
    }
    const owner = callerFiber(this)
    if (owner instanceof ToolAbortedError) return Promise.resolve(failureOf(owner))
    return resumeTicket(this[STATE], service, ticket, signal, readScopeKey(this.ctx), owner)
  }

  /** `parallel` only when the visible definition's `isConcurrencySafe(args)` returns exactly `true`. */
  executionMode(input: ToolExecutionInput): ToolExecutionMode {
    assertRuntimeLive(this, 'executionMode')
    const agent = input?.agent ?? readScopeKey(this.ctx)
    return executionModeOf(this[STATE].registry, input, agent, this[STATE].valueLimits)
  }

  /** Run a model turn's calls as a rolling pool; results in model order. */
  executeBatch(
    inputs: readonly ToolExecutionInput[],
    options?: ExecuteBatchOptions,
  ): Promise<ToolExecutionResult[]> {
    const agent = readScopeKey(this.ctx)
    const scoped =
      agent === undefined || !Array.isArray(inputs)
        ? inputs
        : inputs.map((input) => (input?.agent === undefined ? { ...input, agent } : input))
    const owner = callerFiber(this)
    if (owner instanceof ToolAbortedError)
      return Promise.resolve(Array.isArray(scoped) ? scoped.map(() => failureOf(owner)) : [])
    try {
      return executeBatch(this[STATE], scoped, options, owner)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** The prompt contribution for an agent (default: the calling scope), after `system-prompt/assemble`. */
  assemble(options: AssembleOptions = {}): ToolAssembly {
    assertRuntimeLive(this, 'assemble')
    const agent = options.agent ?? readScopeKey(this.ctx)
    const state = this[STATE]
    return assembleTools(state.registry, state.hooks, agent, options)
  }

  /** Install the Code Mode provider (one at a time). Disposed with the caller's fiber. */
  provideCodeMode(provider: CodeModeProvider): () => void {
    assertLive(this, 'provideCodeMode')
    if (typeof provider !== 'object' || provider === null || typeof provider.sections !== 'function') {
      throw new ToolRegistrationError('provideCodeMode() takes { transport, sections }')
    }
    const transport = compileTool(provider.transport, this[STATE].compile)
    if (transport.name !== RESERVED_TOOL_NAME) {
      throw new ToolRegistrationError(`the Code Mode transport must be named \`${RESERVED_TOOL_NAME}\``)
    }
    const registry = this[STATE].registry
    return own(this, () => registry.installProvider({ provider, transport }), 'tools.provideCodeMode()')
  }

  /**
   * Route `ctx.tools.resume(ticket)` of tickets of `kind` (the text before the ticket's first
   * `.`, lower-case letters; `apr` is the approval tickets' own) to `resumer` (SPEC §13.3: Code
   * Mode registers `run` for its run tickets). One resumer per kind; disposed with the caller's
   * fiber.
   */
  provideResumer(kind: string, resumer: TicketResumer): () => void {
    assertLive(this, 'provideResumer')
    if (!isResumerKind(kind) || typeof resumer !== 'function')
      throw new ToolRegistrationError(
        'provideResumer() takes a ticket kind (1 to 16 lower-case letters, not `apr`) and a function',
      )
    const resumers = this[STATE].resumers
    if (resumers.has(kind))
      throw new ToolRegistrationError(`provideResumer(): tickets of kind \`${kind}\` already have a resumer`)
    return own(
      this,
      () => {
        resumers.set(kind, resumer)
        return () => {
          if (resumers.get(kind) === resumer) resumers.delete(kind)
        }
      },
      'tools.provideResumer()',
    )
  }

  /** The effective presentation mode of an agent (default: the calling scope). */
  modeOf(agent?: ScopeKey): ToolPresentationMode {
    assertRuntimeLive(this, 'modeOf')
    return this[STATE].registry.modeOf(agent ?? readScopeKey(this.ctx))
  }
}

/**
 * End the in-flight calls of agent scope `key` (its scope was disposed) and drop its resolution
 * view, when `runtime` is a live `ToolRuntime`. Internal: `createScope` calls it; not exported from the package.
 */
export function endAgentCalls(runtime: unknown, key: ScopeKey): void {
  if (!(runtime instanceof ToolRuntime)) return
  runtime[STATE].lifetimes.end({ kind: 'agent', agent: key })
  // A short-lived agent leaves nothing behind: neither the tools it loaded through
  // `tool_search` nor its view (its layer's removals drop every view anyway, but an agent that
  // only called tools changed nothing).
  runtime[STATE].deferred.forget(key)
  runtime[STATE].registry.forgetView(key)
}
