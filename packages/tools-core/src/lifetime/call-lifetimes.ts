import { ToolAbortedError } from '../errors'
import type { CompiledTool } from '../internal/compiled-tool'
import { endBodies } from '../pipeline/body-context'
import { notify } from '../pipeline/notify'
import { failureOf } from '../pipeline/results'
import type { ToolCall } from '../pipeline/tool-call'
import type { ScopeKey, ToolExecutionResult } from '../types'

/** The default of the `disposeGraceMs` config: how long a disposed call's body may take to stop. */
export const DEFAULT_DISPOSE_GRACE_MS = 1000

/** What ended: the whole runtime, one cordis fiber (plugin or scope), or one agent scope key. */
export type Ending =
  | { readonly kind: 'runtime' }
  | { readonly kind: 'fiber'; readonly fiber: object; readonly label: string }
  | { readonly kind: 'agent'; readonly agent: ScopeKey }

/**
 * A batch of calls followed as one unit (a model turn): a disposal that reaches the batch — its
 * caller, one of its agents, or any of its calls (a tool's plugin) — ends all of its calls, and
 * its promise settles within the bound.
 */
export interface TrackedBatch {
  readonly owner: object | undefined
  readonly agents: ReadonlySet<ScopeKey>
  /** The calls prepared so far (later inputs check {@link TrackedBatch.ended} before they start). */
  readonly calls: Set<ToolCall>
  ended: ToolAbortedError | undefined
  /** Settle the batch's promise now, with whatever is published and `ABORTED` for the rest. */
  force: (() => void) | undefined
}

const RUNTIME: Ending = Object.freeze({ kind: 'runtime' })

/** The part of a cordis fiber read here: `uid` is `null` once it is disposed. */
export interface CallerFiber {
  readonly uid: number | null
}

/** The part of a cordis context used here (its fiber, and an effect on it). */
export interface CallerContext {
  readonly fiber: CallerFiber
  effect(execute: () => () => void, label?: string): unknown
}

/** The abort error a disposal gives the calls it ends, naming what was disposed. */
function endingError(
  ending: Ending,
  call: ToolCall | undefined,
  owners: WeakMap<CompiledTool, object>,
): ToolAbortedError {
  switch (ending.kind) {
    case 'runtime':
      return new ToolAbortedError('tool call aborted: the tool runtime was disposed')
    case 'agent':
      return new ToolAbortedError(`tool call aborted: agent scope \`${ending.agent}\` was disposed`)
    case 'fiber':
      if (call?.tool !== undefined && owners.get(call.tool) === ending.fiber && call.owner !== ending.fiber)
        return new ToolAbortedError(
          `tool call aborted: the plugin that registered \`${call.tool.name}\` was disposed`,
        )
      return new ToolAbortedError(`tool call aborted: ${ending.label} was disposed`)
  }
}

/**
 * The calls (and batches) in flight in one runtime, and what ends them. A call belongs to the
 * runtime, to the fiber that made it (the caller's ctx: a plugin or an agent scope), to the fiber
 * that registered its tool, and to its agent scope key; when any of them is disposed the call
 * ends `ABORTED`: its body's signal aborts at once, no later stage or listener runs, and the
 * caller gets the result as soon as the pipeline has unwound — at the latest `graceMs` after the
 * disposal, even when a body or listener ignores its signal (it is then left behind, its
 * eventual outcome discarded).
 */
export class CallLifetimes {
  readonly #calls = new Set<ToolCall>()
  readonly #batches = new Set<TrackedBatch>()
  /** Each calling ctx's fiber (a map read per call instead of a walk through cordis' proxy). */
  readonly #callers = new WeakMap<object, CallerFiber>()
  /** Fibers whose disposal is hooked: one hook per fiber, however many ctx objects share it. */
  readonly #hooked = new WeakSet<CallerFiber>()
  /** The fiber that registered each tool (its disposal ends the tool's calls). */
  readonly owners = new WeakMap<CompiledTool, object>()
  /** Set once the runtime is disposed: every later call is `ABORTED` with it. */
  disposed: ToolAbortedError | undefined

  constructor(readonly graceMs: number) {}

  /**
   * The fiber of the calling `ctx` — hooked on first use, so its disposal ends the calls it made
   * and the tools it registered — or the `ABORTED` error when the runtime or that fiber is gone.
   * `label` names the ctx in messages (`agent scope \`a\``).
   */
  callerOf(ctx: CallerContext, label: (ctx: CallerContext) => string): CallerFiber | ToolAbortedError {
    if (this.disposed !== undefined) return this.disposed
    let fiber = this.#callers.get(ctx)
    if (fiber === undefined) {
      fiber = ctx.fiber
      this.#callers.set(ctx, fiber)
    }
    if (fiber.uid === null) return new ToolAbortedError(`tool call aborted: ${label(ctx)} was disposed`)
    if (!this.#hooked.has(fiber)) {
      // Hooked again after each unload: a fiber that cordis restarts lost its effects.
      const hooked = fiber
      const ending: Ending = { kind: 'fiber', fiber, label: label(ctx) }
      try {
        ctx.effect(
          () => () => {
            this.#hooked.delete(hooked)
            this.end(ending)
          },
          'tools: end in-flight calls',
        )
      } catch {
        // cordis refuses effects on an unloading fiber: the ctx is being disposed.
        return new ToolAbortedError(`tool call aborted: ${label(ctx)} was disposed`)
      }
      this.#hooked.add(fiber)
    }
    return fiber
  }

  /** Track a call from its first stage (a synchronous guard or body may dispose its context). */
  add(call: ToolCall): void {
    this.#calls.add(call)
  }

  /** The callId of the tracked call with this execution token (a rare path: approvals name the outer call). */
  callIdOf(token: symbol): string | undefined {
    for (const call of this.#calls) if (call.execution.token === token) return call.execution.callId
    return undefined
  }

  /** Stop tracking a call (it published). */
  delete(call: ToolCall): void {
    this.#calls.delete(call)
  }

  /**
   * Follow one asynchronous call (already {@link add}ed) until its pipeline publishes. Resolves
   * with the published result, or — when a disposal ended the call and its pipeline did not
   * unwind within the grace bound — with the `ABORTED` result published in its place.
   */
  follow(call: ToolCall, pipeline: Promise<ToolExecutionResult>): Promise<ToolExecutionResult> {
    return new Promise<ToolExecutionResult>((resolve, reject) => {
      call.settle = resolve
      pipeline.then(
        (result) => {
          this.#calls.delete(call)
          resolve(result)
        },
        (error: unknown) => {
          this.#calls.delete(call)
          reject(error)
        },
      )
    })
  }

  /** Track a batch (its calls are added to `batch.calls` as they are prepared). */
  trackBatch(batch: TrackedBatch): () => void {
    this.#batches.add(batch)
    return () => {
      this.#batches.delete(batch)
    }
  }

  /** The runtime is being disposed: end everything in flight and refuse what comes later. */
  disposeRuntime(): void {
    this.disposed ??= endingError(RUNTIME, undefined, this.owners)
    this.end(RUNTIME)
  }

  /**
   * End every call and batch `ending` reaches (see the class comment), then, after the grace
   * bound, publish `ABORTED` for any of them whose pipeline is still running.
   */
  end(ending: Ending): void {
    const ended: ToolCall[] = []
    for (const call of this.#calls) {
      if (this.#reaches(ending, call)) ended.push(call)
    }
    const batches: TrackedBatch[] = []
    for (const batch of this.#batches) {
      const reached =
        ending.kind === 'runtime' ||
        (ending.kind === 'fiber' && batch.owner === ending.fiber) ||
        (ending.kind === 'agent' && batch.agents.has(ending.agent)) ||
        [...batch.calls].some((call) => this.#reaches(ending, call))
      if (!reached) continue
      batch.ended ??= endingError(ending, undefined, this.owners)
      batches.push(batch)
      for (const call of batch.calls) ended.push(call)
    }
    for (const call of ended) endCall(call, endingError(ending, call, this.owners))
    if (ended.length === 0 && batches.length === 0) return
    const timer = setTimeout(() => {
      for (const call of ended) forcePublish(call)
      for (const batch of batches) batch.force?.()
    }, this.graceMs)
    timer.unref?.()
  }

  #reaches(ending: Ending, call: ToolCall): boolean {
    switch (ending.kind) {
      case 'runtime':
        return true
      case 'agent':
        return call.execution.agent === ending.agent
      case 'fiber':
        return (
          call.owner === ending.fiber ||
          (call.tool !== undefined && this.owners.get(call.tool) === ending.fiber)
        )
    }
  }
}

/**
 * End one call: remember why (its result will be `ABORTED` with this error whatever its stages
 * do next), and abort its body's signal now. Idempotent; a published call is left alone.
 */
export function endCall(call: ToolCall, error: ToolAbortedError): void {
  if (call.ended !== undefined || call.published !== undefined) return
  call.ended = error
  endBodies(call, error)
}

/**
 * The grace bound passed: publish the call's `ABORTED` result to its caller now, if its pipeline
 * has not. What the pipeline does later is discarded (`publishResult` sees `published`).
 */
export function forcePublish(call: ToolCall): void {
  if (call.published !== undefined || call.ended === undefined) return
  const result = failureOf(call.ended)
  call.published = result
  notify(call, 'tools/result', result)
  call.settle?.(result)
  call.runtime.lifetimes?.delete(call)
}
