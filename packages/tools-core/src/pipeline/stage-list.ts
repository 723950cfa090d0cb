/**
 * The stage list every call goes through: prepare → gate → guards → dispatch → post → publish.
 * `prepareCall` builds the call record and `publishResult` ends every call; the stages between
 * them are functions of the record that return a tagged outcome. `continue` hands the call to
 * the next stage; `settled` means `call.result` is final, and {@link runStages} — the only place
 * that reads the outcome — skips every later stage up to publication.
 */
import { PostPolicyError, ToolFailedError } from '../errors'
import type { ToolExecutionResult } from '../types'
import { concludeDispatch, dispatchCall, settleBodies } from './dispatch-call'
import { parseArguments } from './parse-arguments'
import { runPostExecute } from './post-execute'
import { abortedBeforeDispatch, failureFromThrow, failureOf } from './results'
import { runGate, runGuards } from './run-policy'
import type { PipelineRuntime, ToolCall } from './tool-call'

/** A stage's outcome: go on to the next stage, or the call's result is final. */
export type StageOutcome = 'continue' | 'settled'

/** One stage: synchronous when it can be, so the bare path pays for no extra promise. */
export type StageFn = (call: ToolCall) => StageOutcome | Promise<StageOutcome>

const CONTINUE: StageOutcome = 'continue'
const SETTLED: StageOutcome = 'settled'

function outcomeOf(call: ToolCall): StageOutcome {
  return call.result === undefined ? CONTINUE : SETTLED
}

function listened(runtime: PipelineRuntime, event: string): boolean {
  const hooks = runtime.hooks[event]
  return hooks !== undefined && hooks.length > 0
}

/** The end of step 4: the definition's own `parseArguments` (Standard Schema), when it has one. */
function prepareStage(call: ToolCall): StageOutcome | Promise<StageOutcome> {
  const parsing = parseArguments(call)
  return parsing === undefined ? outcomeOf(call) : parsing.then(() => outcomeOf(call))
}

/**
 * Steps 3 and 5: a call whose caller aborted before policy (while it waited for its turn, say)
 * is `ABORTED_BEFORE_DISPATCH` with no policy run; otherwise the gate, only when someone listens.
 */
function gateStage(call: ToolCall): StageOutcome | Promise<StageOutcome> {
  if (call.callerSignal.aborted) {
    call.result = abortedBeforeDispatch()
    return SETTLED
  }
  if (!listened(call.runtime, 'tools/pre-execute')) return CONTINUE
  return runGate(call).then(
    () => outcomeOf(call),
    (error: unknown) => {
      call.result = failureFromThrow(error, ToolFailedError, 'policy failed: ')
      return SETTLED
    },
  )
}

/**
 * Step 6: the guards, always. A resumed call (`ctx.tools.resume`) enters the list here: its gate
 * already asked, and a person answered.
 */
function guardStage(call: ToolCall): StageOutcome {
  runGuards(call)
  return outcomeOf(call)
}

/** A dispatch that threw: `TOOL_FAILED`, settled only once every body it started has settled. */
function dispatchFailed(call: ToolCall, error: unknown): Promise<StageOutcome> {
  call.dispatched = true
  call.result = failureFromThrow(error, ToolFailedError, 'dispatch failed: ')
  if (call.bodyStarted) call.replacedAfterBody = true
  return settleBodies(call).then(() => CONTINUE)
}

/**
 * Steps 7–8: dispatch sets the body's result and continues (post-execute sees it). It never
 * settles before every body it started has settled, even when the dispatch itself failed.
 * Synchronous when the dispatch is.
 */
function dispatchStage(call: ToolCall): StageOutcome | Promise<StageOutcome> {
  let dispatching: ToolExecutionResult | Promise<ToolExecutionResult>
  try {
    dispatching = dispatchCall(call)
  } catch (error) {
    return dispatchFailed(call, error)
  }
  if (!(dispatching instanceof Promise)) {
    concludeDispatch(call, dispatching)
    return CONTINUE
  }
  return dispatching.then(
    (result) => {
      concludeDispatch(call, result)
      return CONTINUE
    },
    (error: unknown) => dispatchFailed(call, error),
  )
}

/**
 * Step 9: the post-execute waterfall, only when someone listens. Any change it makes to the
 * result (value or content replaced, block, listener failure) marks it `replacedAfterBody`.
 */
function postStage(call: ToolCall): StageOutcome | Promise<StageOutcome> {
  if (!listened(call.runtime, 'tools/post-execute')) return CONTINUE
  const before = call.result
  return runPostExecute(call).then(
    () => {
      if (call.result !== before) call.replacedAfterBody = true
      return CONTINUE
    },
    (error: unknown) => {
      call.result = failureFromThrow(error, PostPolicyError, 'post-execute failed: ')
      call.replacedAfterBody = true
      return SETTLED
    },
  )
}

/** The stages between `prepareCall` and `publishResult`, in order. */
export const STAGE_LIST: readonly StageFn[] = Object.freeze([
  prepareStage,
  gateStage,
  guardStage,
  dispatchStage,
  postStage,
])

/** Indexes into {@link STAGE_LIST}: where a scheduler may stop a call and resume it later. */
export const StageIndex = Object.freeze({
  PREPARE: 0,
  POLICY: 1,
  /** Where a resumed call re-enters: after the gate, before the guards. */
  GUARDS: 2,
  DISPATCH: 3,
  POST: 4,
  PUBLISH: 5,
})

/**
 * Drive a call through `STAGE_LIST[from..until)`, stopping at the first stage that settles (or
 * before the next stage once a disposal ended the call).
 * Returns `settled` when one did, else `continue`. Synchronous while every stage is.
 */
export function runStages(call: ToolCall, from: number, until: number): StageOutcome | Promise<StageOutcome> {
  for (let index = from; index < until; index++) {
    // A disposal ended the call: no later stage (nor its listeners) runs.
    if (call.ended !== undefined) {
      call.result = failureOf(call.ended)
      return SETTLED
    }
    const outcome = STAGE_LIST[index]!(call)
    if (outcome === SETTLED) return SETTLED
    if (outcome instanceof Promise) {
      const next = index + 1
      return outcome.then((done) => (done === SETTLED ? SETTLED : runStages(call, next, until)))
    }
  }
  return CONTINUE
}
