/**
 * Public types of @dsh/tools-core. This module holds types only; behaviour lives in the
 * modules named after what they export. It is the contract every other dsh-tools package
 * codes against, so change it deliberately.
 */
import type {
  JsonSchemaNode,
  JsonValue,
  ObjectJsonSchema,
  ProviderDialect,
  SchemaViolation,
} from '@dsh/tools-schema'
import type { ToolCallView, ToolResultView } from './presentation-types'

// ───────────────────────────── identity and scopes ─────────────────────────────

/** The key of an agent scope (see `createScope`). Absent means the global layer. */
export type ScopeKey = string

/** How the registry shows tools to the model: native function definitions, Code Mode, or both. */
export type ToolPresentationMode = 'native' | 'code' | 'both'

declare const toolExecutionTokenBrand: unique symbol

/**
 * Opaque identity of one execution, minted by the registry as a fresh `Symbol`. It supports
 * only equality; it never crosses the model, log or worker boundary. A nested call passes the
 * outer token as `parent`.
 */
export type ToolExecutionToken = symbol & { readonly [toolExecutionTokenBrand]: true }

// ─────────────────────────────────── content ───────────────────────────────────

/** A text part of model-facing content. */
export interface TextContentPart {
  readonly type: 'text'
  readonly text: string
}

/** An image part of model-facing content; `data` is base64. */
export interface ImageContentPart {
  readonly type: 'image'
  readonly mediaType: string
  readonly data: string
}

/** One part of the content a tool result shows the model. */
export type ContentPart = TextContentPart | ImageContentPart

/** Model-facing content of a result: exactly what `output.render(args, value)` returns. */
export type ToolContent = readonly ContentPart[]

/**
 * A context message deferred to the loop: appended after the tool's result (FIFO), never
 * injected immediately. `source` names the plugin or tool that produced it.
 */
export interface AdditionalContext {
  readonly source: string
  readonly text: string
  readonly meta?: JsonValue
}

// ────────────────────────────────── executions ─────────────────────────────────

/** The caller's description of one tool call. `signal` is required and caller-owned. */
export interface ToolExecutionInput {
  readonly callId: string
  readonly name: string
  /** Raw model arguments; snapshotted losslessly at entry (a lossy value is `INVALID_ARGS`). */
  readonly arguments: unknown
  readonly signal: AbortSignal
  /** The calling agent's scope key; absent for a global call. */
  readonly agent?: ScopeKey
  /** The outer execution's token, for calls made from inside another tool (Code Mode). */
  readonly parent?: ToolExecutionToken
  /**
   * The provider dialect the model saw the tool in (`assemble({ dialect })`). Arguments are read
   * back to canonical form (`providerArgsToCanonical`) before step 1, so validation, policy and
   * the body see canonical arguments. Absent: the arguments are canonical already.
   */
  readonly dialect?: ProviderDialect
}

/** The frozen pipeline view of one call. Arguments are a deep-frozen lossless snapshot. */
export interface ToolExecution {
  readonly token: ToolExecutionToken
  readonly callId: string
  readonly name: string
  readonly arguments: JsonValue
  readonly signal: AbortSignal
  readonly agent?: ScopeKey
  readonly parent?: ToolExecutionToken
}

/**
 * The view one `tools/execute` wrapper gets: identical to {@link ToolExecution}, with `signal`
 * the one its outer wrapper passed on. Each wrapper has a view of its own. Pass a different
 * signal on with `next(signal)`; assigning `signal` before calling `next()` works too (it
 * changes only this wrapper's view, so nothing needs restoring). Nothing else is writable.
 */
export interface ToolDispatchExecution extends Omit<ToolExecution, 'signal'> {
  signal: AbortSignal
}

/** What a tool body receives: the execution plus `deferContext` and `progress`. */
export interface ToolRunContext extends ToolExecution {
  /**
   * Defer a context to the moment this tool's final result reaches the loop. Kept even if
   * the body later throws or is aborted; dropped only when post-execute blocks.
   */
  deferContext(context: AdditionalContext): void
  /**
   * Report progress of a long body as an observe-only `tools/progress` event. Never throws:
   * invalid fields are dropped, `message` is capped at {@link MAX_PROGRESS_MESSAGE_LENGTH}
   * characters, and once the body settled the call is a no-op.
   */
  progress(update: ToolProgressUpdate): void
}

/**
 * One progress report of a running body. Every field is optional; `progress` and `total` are
 * finite numbers (e.g. bytes so far and expected bytes), `message` is a short human line.
 */
export interface ToolProgressUpdate {
  readonly message?: string
  readonly progress?: number
  readonly total?: number
}

/**
 * An observable stage of one call, emitted as the observe-only `tools/stage` event (tracing,
 * metrics). `start` comes first for every call; the others only for the stages the call reaches:
 * `decision` after the pre-execute gate or a guard denial (`source` says which), `approval-start`
 * and `approval-end` around an approval wait, `body-start` and `body-end` around each body
 * invocation, `post-decision` after `tools/post-execute`.
 */
export type ToolStageEvent =
  | { readonly stage: 'start' }
  | {
      readonly stage: 'decision'
      readonly source: 'pre-execute' | 'guard'
      readonly decision: 'allow' | 'deny' | 'ask'
      readonly reason?: string
    }
  | { readonly stage: 'approval-start'; readonly reason?: string }
  | { readonly stage: 'approval-end'; readonly approved: boolean; readonly reason?: string }
  | { readonly stage: 'body-start' }
  | { readonly stage: 'body-end'; readonly isError: boolean }
  | { readonly stage: 'post-decision'; readonly decision: 'accept' | 'block' }

// ─────────────────────────────────── results ───────────────────────────────────

/** Internal identity of a failure: the error class name and its code. */
export interface ToolFailureInfo {
  readonly name: string
  readonly code: string
}

/** A successful result. `value` is the canonical, validated, deep-frozen output value. */
export interface ToolSuccess {
  readonly isError: false
  readonly value: JsonValue
  readonly content: ToolContent
  readonly meta?: JsonValue
  readonly additionalContexts?: readonly AdditionalContext[]
}

/** A failed result. It carries no value; content is `[{ type: 'text', text: 'Error: <message>' }]`. */
export interface ToolFailure {
  readonly isError: true
  readonly error: { readonly message: string; readonly info?: ToolFailureInfo }
  readonly content: ToolContent
  readonly meta?: JsonValue
  readonly additionalContexts?: readonly AdditionalContext[]
  /**
   * Set only on an `APPROVAL_PENDING` failure: the ticket a person decides and
   * `ctx.tools.resume(ticket)` continues (SPEC §13.2).
   */
  readonly pending?: ToolPendingApproval
}

/** `result.pending` of an `APPROVAL_PENDING` failure: what to show a person, and the ticket to resume. */
export interface ToolPendingApproval {
  readonly ticket: string
  readonly tool: string
  /** The agent scope key, `''` outside any agent scope. */
  readonly agent: string
  readonly reason?: string
  /** Epoch ms after which the approval can no longer be given. */
  readonly expiresAt: number
  /**
   * For a suspended Code Mode run (SPEC §13.3): `ticket` is the run's ticket and these are the
   * approvals asked inside the program; decide every one, then resume the run's ticket once.
   */
  readonly approvals?: readonly ToolNestedApproval[]
}

/** One approval asked inside a suspended Code Mode run (`ToolPendingApproval.approvals`). */
export interface ToolNestedApproval {
  readonly ticket: string
  readonly tool: string
  readonly reason?: string
  readonly expiresAt: number
}

/** The discriminated, execution-local result of `execute`. */
export type ToolExecutionResult = ToolSuccess | ToolFailure

/**
 * The durable part of a result that a UI keeps and replays: no canonical value. Presenters
 * receive this shape so live rendering and log replay agree.
 */
export interface ToolResultRecord {
  readonly isError: boolean
  readonly content: ToolContent
  readonly error?: { readonly message: string; readonly info?: ToolFailureInfo }
}

// ────────────────────────────────── decisions ──────────────────────────────────

/** The outcome of the `tools/pre-execute` gate. There is deliberately no argument rewriting. */
export type PreToolDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'ask'; readonly reason?: string }

/**
 * The outcome of `tools/post-execute`. `accept` may replace `content` or `value` (never both)
 * and may add contexts; `block` turns the result into a valueless failure with `feedback`.
 */
export type PostToolDecision =
  | {
      readonly kind: 'accept'
      readonly content?: ToolContent
      readonly value?: JsonValue
      readonly additionalContexts?: readonly AdditionalContext[]
    }
  | {
      readonly kind: 'block'
      readonly feedback: string
      readonly additionalContexts?: readonly AdditionalContext[]
    }

/** A monotonic synchronous guard: a string denies with that reason, `undefined` keeps the decision. */
export type ToolGuard = (execution: ToolExecution) => string | undefined

/**
 * What an approval service answers: a decision now (`{ approved, reason? }`), or `{ suspend }` —
 * the call was persisted as a ticket and ends `APPROVAL_PENDING` without waiting (SPEC §13.2).
 */
export type ApprovalAnswer =
  | { readonly approved: boolean; readonly reason?: string }
  | { readonly suspend: { readonly ticket: string; readonly expiresAt: number } }

/** What the pipeline tells an approval service beside the execution (durable services persist it). */
export interface ApprovalRequestDetails {
  /** The tool's definition fingerprint (`toolFingerprint`). */
  readonly fingerprint: string
  /** The tool's annotations (`idempotent` decides recovery after a crash). */
  readonly annotations?: ToolAnnotations
  /** The callId of the outer call, for a nested (Code Mode) call whose outer call is still tracked. */
  readonly parentCallId?: string
}

/** The approval seam, looked up as `ctx.get('approval')` (duck-typed). Absent → `ask` degrades to deny. */
export interface ApprovalService {
  request(
    execution: ToolExecution,
    reason: string | undefined,
    details?: ApprovalRequestDetails,
  ): Promise<ApprovalAnswer>
}

// ────────────────────────────────── definitions ────────────────────────────────

/** The output declaration every tool must make: the canonical value's schema and its renderer. */
export interface ToolOutputDeclaration<A = any, V extends JsonValue = JsonValue> {
  readonly schema: JsonSchemaNode
  render(args: A, value: V): ToolContent
  /**
   * JSON meta persisted with a top-level result and handed back to `presentResult`; never
   * computed for nested (Code Mode) calls. `undefined` means no meta.
   */
  presentationMeta?(args: A, value: V): JsonValue | undefined
}

/** What `schemas()` reports for one tool: everything but behaviour. */
export interface ToolSchema {
  readonly name: string
  readonly description: string
  readonly parameters: ObjectJsonSchema
  readonly outputSchema: JsonSchemaNode
}

/**
 * A trusted in-process tool. `defineTool` builds one from the schema DSL with typed `args`
 * and return value; a raw definition gives compiled JSON Schema directly. The registry
 * validates arguments against `parameters` before any policy runs.
 */
export interface ToolDefinition<A = any, V extends JsonValue = JsonValue> {
  readonly name: string
  readonly description: string
  readonly parameters: ObjectJsonSchema
  readonly output: ToolOutputDeclaration<A, V>
  execute(args: A, exec: ToolRunContext): V | Promise<V>
  /**
   * A second argument check after `parameters` (end of step 4), sync or async: `defineTool`
   * sets it to a Standard Schema's own `validate`. Violations become `INVALID_ARGS`; a value is
   * what the body receives (refinements and transforms hold). Policy, approvals and presenters
   * still see the canonical JSON arguments.
   */
  parseArguments?(args: JsonValue): ArgumentsParse | Promise<ArgumentsParse>
  /**
   * A check of the body's canonical value before `output.schema` (sync or async): `defineTool`
   * sets it to a Standard Schema `output.schema`'s own `validate`. Violations (or a throw) become
   * `INVALID_OUTPUT`; a value is what is validated against `output.schema`, rendered and published
   * (a library transform's output, not the body's raw return).
   */
  parseOutput?(value: JsonValue): ArgumentsParse | Promise<ArgumentsParse>
  /**
   * Synchronous, total; runs at most once per normalized outcome and may replace only content.
   * It is not run on a result replaced after the body started (a wrapper's own result, the abort
   * rule's `ABORTED`, any `tools/post-execute` change): then the content derives from the final
   * value. Side data it shows must be keyed weakly (by `exec.token`), never assumed consumed.
   */
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined
  /** Pure and replay-safe; args are soft-validated (a presenter never sees args it cannot handle). */
  presentCall?(args: A): ToolCallView | undefined
  /** Pure and replay-safe: gets the durable record and the persisted meta, never the value. */
  presentResult?(args: A, result: ToolResultRecord, meta: JsonValue | undefined): ToolResultView | undefined
  /** Cooperative budget in ms, enforced only by a `tools/execute` wrapper (tool-call-timeout-policy). */
  readonly timeoutMs?: number
  /** Exactly `true` lets this call's body overlap other parallel calls. */
  isConcurrencySafe?(args: A): boolean
  /** Behaviour hints; `readOnly: true` without `isConcurrencySafe` means concurrency-safe. */
  readonly annotations?: ToolAnnotations
}

/**
 * Behaviour hints a tool declares about itself (the MCP tool annotations, SPEC §10). They are
 * descriptive, not enforced: `readOnly` also makes calls concurrency-safe unless the definition
 * has its own `isConcurrencySafe`; the rest is metadata for presenters, policies and MCP clients.
 */
export interface ToolAnnotations {
  /** The tool does not change its environment. */
  readonly readOnly?: boolean
  /** The tool may destroy or overwrite data (meaningful when not `readOnly`). */
  readonly destructive?: boolean
  /** Repeating a call with the same arguments has no further effect. */
  readonly idempotent?: boolean
  /** The tool reaches an open world (the web, other people's systems), not a closed domain. */
  readonly openWorld?: boolean
}

/**
 * What `ToolDefinition.parseArguments` (and `parseOutput`) yields: the body's arguments (the value
 * to publish), or path-qualified violations.
 */
export type ArgumentsParse = { readonly value: unknown } | { readonly violations: readonly SchemaViolation[] }

/** The scheduling class of a call. */
export type ToolExecutionMode = 'parallel' | 'exclusive'

/** Options of `executeBatch`. */
export interface ExecuteBatchOptions {
  /** How many parallel bodies may overlap (integer ≥ 1, default 10). */
  readonly maxParallel?: number
  /** Aborts every call of the batch, fused with each input's own signal. */
  readonly signal?: AbortSignal
}

// ─────────────────────────────── prompt assembly ───────────────────────────────

/**
 * A native function definition the mode contributes to the model request. `parameters` is the
 * canonical JSON Schema, or the provider's form under `assemble({ dialect })`.
 */
export interface NativeToolSpec {
  readonly name: string
  readonly description: string
  readonly parameters: ObjectJsonSchema
}

/** A section of the system prompt contributed by the registry (e.g. `tools:sdk` at 150). */
export interface PromptSection {
  readonly id: string
  readonly order: number
  readonly text: string
}

/** What `assemble()` returns and `system-prompt/assemble` listeners may replace. */
export interface ToolAssembly {
  readonly mode: ToolPresentationMode
  readonly tools: readonly NativeToolSpec[]
  readonly sections: readonly PromptSection[]
}

/**
 * Input of `assemble()`. `toolOrder` names tools to put first, in that order. `dialect`
 * converts every native definition's parameters with `toProviderSchema` (default: canonical
 * JSON Schema); calls the model makes from them pass the same `dialect` to `execute`.
 */
export interface AssembleOptions {
  readonly agent?: ScopeKey
  readonly toolOrder?: readonly string[]
  readonly dialect?: ProviderDialect
}

/**
 * Filter of `defer()`: tool names (non-empty; names not registered yet are fine) or a
 * predicate over each visible tool's schema (exactly `true` defers it).
 */
export type ToolDeferral = readonly string[] | ((tool: ToolSchema) => boolean)

/** Filter of `restrict()`: exactly one of `allow` or `deny`, non-empty. */
export type ToolRestriction = { readonly allow: readonly string[] } | { readonly deny: readonly string[] }

/**
 * The seam Code Mode plugs into (`ctx.tools.provideCodeMode(provider)`). tools-core owns only
 * the mode, the reserved name and the code-only gate; the provider owns the transport and
 * its prompt sections.
 */
export interface CodeModeProvider {
  /** The `run_code` transport. Its name must be `run_code`. */
  readonly transport: ToolDefinition
  /**
   * Sections for one assembly in a non-native mode: `tools:sdk` (order 150) and `tools:code-only`
   * (text empty in `both`). Throws when the loaded runtime language has no SDK renderer.
   */
  sections(input: {
    readonly agent?: ScopeKey
    readonly mode: 'code' | 'both'
    readonly tools: readonly ToolSchema[]
  }): PromptSection[]
}
