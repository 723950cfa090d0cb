import { type Context, Service } from '@deepseek-ai/cordis'
import { assembleTools } from './assembly'
import { type ConfigValidationResult, standardConfigSchema } from './config-schema'
import { ToolRegistrationError } from './errors'
import './events' // the cordis `Events` augmentation (tools/* and system-prompt/assemble)
import { DeferredTools } from './deferred/deferred-tools'
import { builtinTools } from './internal/builtin-tools'
import { type CompileOptions, compileTool } from './internal/compiled-tool'
import { hookTableOf } from './internal/listeners'
import { readScopeKey } from './internal/scope-key'
import { executeCall } from './pipeline/execute-call'
import type { PipelineRuntime } from './pipeline/tool-call'
import { assertMode, RESERVED_TOOL_NAME, ToolRegistry } from './registry'
import { type ResultBudgetConfig, validateResultBudget } from './result-budget/config'
import { ResultBudget } from './result-budget/result-budget'
import { executeBatch } from './schedule/execute-batch'
import { executionModeOf } from './schedule/execution-mode'
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

/** Config of the `ToolRuntime` service. */
export interface ToolRuntimeConfig {
  /** How tools are presented to agents that did not `presentAs()`: default `native`. */
  mode?: ToolPresentationMode
  /**
   * Cap model-facing content of top-level results (after `finalizeContent`), keeping the full
   * text behind a handle that the built-in `read_result` tool pages through. Off by default.
   */
  resultBudget?: ResultBudgetConfig
  /**
   * `'annotate'` (default): JSON Schema `format` is an annotation. `'assert'`: every tool's
   * `parameters` and `output.schema` registered with this runtime check date-time, date, time,
   * duration, email, hostname, ipv4, ipv6, uri, uri-reference, uuid and regex (other format
   * names stay annotations), so a violating argument is `INVALID_ARGS` and a violating value
   * `INVALID_OUTPUT`.
   */
  formats?: 'annotate' | 'assert'
}

const STATE = Symbol('dsh-tools.runtime')

interface RuntimeState extends PipelineRuntime {
  readonly ctx: Context
  readonly deferred: DeferredTools
  /** How every registration's schemas are compiled (the `formats` config). */
  readonly compile: CompileOptions
}

/** The config's `formats` problem, if any (`undefined` is the default, `annotate`). */
function formatsProblem(formats: unknown): string | undefined {
  if (formats === undefined || formats === 'annotate' || formats === 'assert') return undefined
  let shown: string
  try {
    shown = typeof formats === 'string' ? JSON.stringify(formats) : typeof formats
  } catch {
    shown = typeof formats
  }
  return `formats must be 'annotate' or 'assert' (got ${shown})`
}

function validateConfig(value: unknown): ConfigValidationResult<ToolRuntimeConfig> {
  if (value === undefined || value === null) return { value: { mode: 'native' as const } }
  if (typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ message: 'config must be an object' }] }
  const mode = (value as ToolRuntimeConfig).mode ?? 'native'
  if (mode !== 'native' && mode !== 'code' && mode !== 'both') {
    return {
      issues: [{ message: `mode must be native, code or both (got ${String(mode)})`, path: ['mode'] }],
    }
  }
  const formats = formatsProblem((value as ToolRuntimeConfig).formats)
  if (formats !== undefined) return { issues: [{ message: formats, path: ['formats'] }] }
  const budget = (value as ToolRuntimeConfig).resultBudget
  if (budget !== undefined) {
    const checked = validateResultBudget(budget)
    if (Array.isArray(checked)) return { issues: checked }
  }
  return { value: { ...(value as object), mode } }
}

function resolveBudget(config: ToolRuntimeConfig | undefined): ResultBudget | undefined {
  if (config?.resultBudget === undefined) return undefined
  const checked = validateResultBudget(config.resultBudget)
  if (Array.isArray(checked)) {
    throw new ToolRegistrationError(
      `invalid resultBudget: ${checked.map((issue) => issue.message).join('; ')}`,
    )
  }
  return new ResultBudget(checked)
}

function scopeKeyOf(self: ToolRuntime, what: string): ScopeKey {
  const key = readScopeKey(self.ctx)
  if (key === undefined) throw new ToolRegistrationError(`${what}() must be called from an agent scope's ctx`)
  return key
}

function own(self: ToolRuntime, effect: () => () => void, label: string): () => void {
  const dispose = self.ctx.effect(effect, label)
  return () => {
    void dispose()
  }
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
export default class ToolRuntime extends Service {
  /** Standard-schema validator of {@link ToolRuntimeConfig}. */
  static Config = standardConfigSchema<ToolRuntimeConfig | undefined, ToolRuntimeConfig>(validateConfig)

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
    const mode = config?.mode ?? 'native'
    assertMode(mode)
    // cordis validates `Config` first; this covers a runtime constructed without it
    const formats = formatsProblem(config?.formats)
    if (formats !== undefined) throw new ToolRegistrationError(`invalid config: ${formats}`)
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
    const budget = resolveBudget(config)
    const deferred = new DeferredTools(changed, report)
    registry.builtins = builtinTools(registry, deferred, budget)
    registry.deferral = deferred
    const state: RuntimeState = {
      ctx,
      registry,
      deferred,
      budget,
      hooks,
      approval: () => {
        const approval = ctx.get('approval') as ApprovalService | undefined
        return typeof approval?.request === 'function' ? approval : undefined
      },
      report,
      compile: Object.freeze(config?.formats === 'assert' ? { formats: 'assert' as const } : {}),
    }
    this[STATE] = state
  }

  /** Register a tool in the calling scope's layer (global from a plain ctx). Disposed with the caller's fiber. */
  register(definition: ToolDefinition): () => void {
    const tool = compileTool(definition, this[STATE].compile)
    const agent = readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (tool.name === RESERVED_TOOL_NAME) {
      throw new ToolRegistrationError(`\`${RESERVED_TOOL_NAME}\` is reserved for the Code Mode transport`)
    }
    return own(this, () => registry.add(tool, agent), `tools.register(${JSON.stringify(tool.name)})`)
  }

  /** Add a monotonic synchronous guard (scoped when called from an agent scope). */
  guard(guard: ToolGuard): () => void {
    const agent = readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (typeof guard !== 'function') throw new ToolRegistrationError('guard() takes a function')
    return own(this, () => registry.addGuard(guard, agent), 'tools.guard()')
  }

  /** Mask the globals the calling agent sees. Throws from a plain ctx. */
  restrict(filter: ToolRestriction): () => void {
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
    const agent = readScopeKey(this.ctx)
    const deferred = this[STATE].deferred
    return own(this, () => deferred.add(filter, agent), 'tools.defer()')
  }

  /** Choose the calling agent's presentation mode (one per scope). Throws from a plain ctx. */
  presentAs(mode: ToolPresentationMode): () => void {
    const agent = scopeKeyOf(this, 'presentAs')
    assertMode(mode)
    const registry = this[STATE].registry
    return own(this, () => registry.presentAs(agent, mode), `tools.presentAs(${mode})`)
  }

  /** The definition `name` resolves to for `scope` (default: the calling scope). */
  get(name: string, scope?: ScopeKey): ToolDefinition | undefined {
    const agent = scope ?? readScopeKey(this.ctx)
    const registry = this[STATE].registry
    if (name === RESERVED_TOOL_NAME) return registry.transportFor(agent)?.definition
    return registry.resolve(name, agent)?.definition
  }

  /** Every schema visible to `scope` (default: the calling scope), without behaviour. */
  schemas(scope?: ScopeKey): ToolSchema[] {
    const agent = scope ?? readScopeKey(this.ctx)
    return this[STATE].registry.visible(agent).map((tool) => tool.schema)
  }

  /** Run one call through the full pipeline. Failures are results, never throws. */
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult> {
    const state = this[STATE]
    if (input?.agent === undefined) {
      const agent = readScopeKey(this.ctx)
      if (agent !== undefined) input = { ...input, agent }
    }
    try {
      return executeCall(state, input)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** `parallel` only when the visible definition's `isConcurrencySafe(args)` returns exactly `true`. */
  executionMode(input: ToolExecutionInput): ToolExecutionMode {
    const agent = input?.agent ?? readScopeKey(this.ctx)
    return executionModeOf(this[STATE].registry, input, agent)
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
    try {
      return executeBatch(this[STATE], scoped, options)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** The prompt contribution for an agent (default: the calling scope), after `system-prompt/assemble`. */
  assemble(options: AssembleOptions = {}): ToolAssembly {
    const agent = options.agent ?? readScopeKey(this.ctx)
    const state = this[STATE]
    return assembleTools(state.registry, state.hooks, agent, options)
  }

  /** Install the Code Mode provider (one at a time). Disposed with the caller's fiber. */
  provideCodeMode(provider: CodeModeProvider): () => void {
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

  /** The effective presentation mode of an agent (default: the calling scope). */
  modeOf(agent?: ScopeKey): ToolPresentationMode {
    return this[STATE].registry.modeOf(agent ?? readScopeKey(this.ctx))
  }
}
