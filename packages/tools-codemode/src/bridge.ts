/**
 * The dispatch bridge: the host side of one `run_code` run. It turns each binding call of the
 * program into a full-pipeline tool execution, schedules it through a per-run `CallScheduler`
 * (tools-core's one parallel/exclusive rule, configured with `maxParallelSubCalls` and calls
 * submitted as they arrive), and owns the run-scoped abort and the drain at settlement.
 */
import type {
  AdditionalContext,
  JsonValue,
  ToolContent,
  ToolExecutionInput,
  ToolExecutionResult,
  ToolRunContext,
} from '@dsh/tools-core'
import { CallScheduler, RESERVED_TOOL_NAME } from '@dsh/tools-core'
import type { DispatchEventPort, ToolRuntimePort } from './bridge-ports'
import type { CodeRunHost, CodeRunOutcome, CodeRunReads, CodeRuntime } from './code-runtime'
import { answerFromLedger, type LedgerAnswerContext } from './durable/ledger-answer'
import { ProgramStop } from './durable/program-stop'
import type { ReplayAnswer, RunJournal } from './durable/run-journal'
import { ToolCallError } from './errors'
import {
  type AdmittedArguments,
  type RefusedCall,
  SubCallAdmission,
  type SubCallLimits,
} from './sub-call-admission'
import { TurnBudget } from './turn-budget'
import { unknownBindingMessage } from './unknown-binding-message'

/**
 * JSON values of sub-call work (admitting arguments, dispatching calls) one event-loop turn may
 * do before the rest waits for the next turn (see `TurnBudget`). The piece that crosses it runs
 * whole, so with a call's own cap (`maxArgumentNodes`, 20,000 by default) a turn does at most
 * about 40,000 values of such work, whatever the batch.
 */
export const SUB_CALL_NODES_PER_TURN = 20_000

/** What a bridge needs from its surroundings. */
export interface BridgeEnvironment {
  readonly tools: ToolRuntimePort
  readonly runtime: CodeRuntime
  readonly events: DispatchEventPort
  /** The validated Code Mode config: `maxParallelSubCalls` and the per-run limits. */
  readonly limits: SubCallLimits
  /** Aborted when the plugin is disposed: every run's signal follows it, as it follows the call's. */
  readonly shutdown?: AbortSignal
}

/** One binding call on its way through the pool. */
interface SubCall {
  readonly n: number
  readonly exclusive: boolean
  readonly input: ToolExecutionInput
  /** JSON values in the arguments: what dispatching the call costs a turn. */
  readonly nodes: number
  /** Argument bytes this call holds in the queue until it starts (0 when it started at once). */
  queuedBytes: number
  resolve: (value: JsonValue) => void
  reject: (error: ToolCallError) => void
}

function rejectWith(name: string, message: string): Promise<never> {
  return Promise.reject(new ToolCallError(name, message))
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The host of one run. Created per `run_code` execution; implements {@link CodeRunHost}. */
export class CodeRunBridge implements CodeRunHost {
  /**
   * The program's signal: follows the run-scoped signal (the outer signal, the run's end), and
   * also aborts when the run suspends or diverges — the program stops, its sub-calls still
   * running may settle.
   */
  readonly signal: AbortSignal
  /** The nondeterministic reads' replay and record, when the run keeps a journal. */
  readonly reads?: CodeRunReads
  /** The run-scoped signal sub-calls get: aborts when the run settles. */
  private readonly controller = new AbortController()
  private readonly program: ProgramStop
  /** Approval tickets being resumed for calls the ledger answers (drained like started calls). */
  private readonly resuming = new Set<Promise<unknown>>()
  private readonly pool: CallScheduler<SubCall>
  private readonly admission: SubCallAdmission
  private readonly turns = new TurnBudget(SUB_CALL_NODES_PER_TURN)
  private readonly names: ReadonlySet<string>
  private readonly contexts: [number, readonly AdditionalContext[]][] = []
  private submitted = 0
  private ended = false
  /** Calls dispatched and not yet settled. */
  private running = 0
  private readonly outerSignal: AbortSignal
  private readonly onOuterAbort = (): void => this.controller.abort(this.outerSignal.reason)
  private readonly onShutdown = (): void => this.controller.abort(new Error('tools-codemode was disposed'))

  constructor(
    private readonly env: BridgeEnvironment,
    private readonly exec: ToolRunContext,
    toolNames: readonly string[],
    private readonly journal?: RunJournal,
  ) {
    this.program = new ProgramStop(this.controller.signal, env.limits.subCallDrainMs)
    this.signal = this.program.signal
    if (journal !== undefined)
      this.reads = { replay: journal.replayReads, record: (values) => journal.recordReads(values) }
    this.outerSignal = exec.signal
    if (exec.signal.aborted) this.controller.abort(exec.signal.reason)
    else exec.signal.addEventListener('abort', this.onOuterAbort, { once: true })
    if (env.shutdown?.aborted) this.controller.abort(new Error('tools-codemode was disposed'))
    else env.shutdown?.addEventListener('abort', this.onShutdown, { once: true })
    this.names = new Set(toolNames)
    this.admission = new SubCallAdmission(env.limits)
    this.pool = new CallScheduler(env.limits.maxParallelSubCalls, (call) =>
      this.turns.run(() => {
        void this.dispatch(call)
        return call.nodes
      }),
    )
  }

  /** How many binding calls were submitted to the pool so far. */
  get submittedCalls(): number {
    return this.submitted
  }

  /**
   * Submit one binding call (bound: safe to detach from the bridge). The run's limits are
   * checked first (see {@link SubCallAdmission}); a refused call rejects with a
   * `ToolCallError` and reaches neither policy nor a tool.
   */
  readonly call = (name: string, args: JsonValue): Promise<JsonValue> =>
    this.enter(name, () => this.admission.admit(args))

  /**
   * {@link call} with the arguments as JSON text (bound). The bridge parses the text, so it
   * owns the arguments and admits them without a copy (`SubCallAdmission.admitJson`).
   */
  readonly callJson = (name: string, argsJson: string): Promise<JsonValue> => {
    if (typeof argsJson !== 'string') return rejectWith(String(name), 'arguments JSON must be a string')
    return this.enter(name, () => this.admission.admitJson(argsJson))
  }

  /**
   * Admit and submit one call in its turn (see {@link SUB_CALL_NODES_PER_TURN}): calls keep
   * their order, and a batch of large ones spreads over several event-loop turns.
   */
  private enter(name: string, admit: () => AdmittedArguments | RefusedCall): Promise<JsonValue> {
    return new Promise<JsonValue>((resolve, reject) => {
      this.turns.run(() => {
        const refused = this.refuseUnadmitted(name)
        if (refused !== undefined) {
          refused.then(resolve, reject)
          return 0
        }
        const admitted = admit()
        this.submit(name, admitted).then(resolve, reject)
        return admitted.ok ? admitted.nodes : 0
      })
    })
  }

  /**
   * Count the call and check what comes before its arguments are read: the run still going,
   * `maxSubCallsPerRun`, and the name being a binding. The refusal, or `undefined`.
   */
  private refuseUnadmitted(name: string): Promise<never> | undefined {
    if (this.ended) return rejectWith(name, 'the run_code program has already finished')
    if (this.program.signal.aborted) return rejectWith(String(name), 'the run_code program is stopping')
    const overLimit = this.admission.count()
    if (overLimit !== undefined) return rejectWith(String(name), overLimit.message)
    if (typeof name === 'string' && this.names.has(name)) return undefined
    return rejectWith(String(name), unknownBindingMessage(String(name), this.names))
  }

  /** Queue an admitted call (or reject a refused one) and return the program's promise. */
  private submit(name: string, admitted: AdmittedArguments | RefusedCall): Promise<JsonValue> {
    if (!admitted.ok) return rejectWith(name, admitted.message)
    const admission = this.admission
    const snapshot = admitted.value
    const n = this.submitted + 1
    const answer = this.journal?.replay(n, name, snapshot)
    if (answer !== undefined) {
      this.submitted = n
      return this.answer(n, name, answer)
    }
    const exec = this.exec
    const input: ToolExecutionInput =
      exec.agent === undefined
        ? {
            callId: `${exec.callId}:code:${n}`,
            name,
            arguments: snapshot,
            signal: this.signal,
            parent: exec.token,
          }
        : {
            callId: `${exec.callId}:code:${n}`,
            name,
            arguments: snapshot,
            signal: this.signal,
            agent: exec.agent,
            parent: exec.token,
          }
    let exclusive = true
    try {
      exclusive = this.env.tools.executionMode(input) !== 'parallel'
    } catch {
      // an unclassifiable call runs alone
    }
    const call: SubCall = {
      n,
      exclusive,
      input,
      nodes: admitted.nodes,
      queuedBytes: 0,
      resolve: undefined!,
      reject: undefined!,
    }
    if (!this.pool.wouldStart(call)) {
      const refused = admission.enqueue(admitted.bytes)
      if (refused !== undefined) return rejectWith(name, refused.message)
      call.queuedBytes = admitted.bytes
    }
    this.submitted = n
    admission.submitted()
    const promise = new Promise<JsonValue>((resolve, reject) => {
      call.resolve = resolve
      call.reject = reject
    })
    this.pool.submit(call)
    return promise
  }

  /** The run suspends (see `ProgramStop.suspending`); called again at every settle meanwhile. */
  private suspending(): void {
    this.program.suspending(this.running + this.resuming.size)
  }

  /** Answer call `n` from the ledger; a resumed approval is drained like a started call. */
  private answer(n: number, name: string, answer: ReplayAnswer): Promise<JsonValue> {
    const context: LedgerAnswerContext = {
      tools: this.env.tools,
      journal: this.journal!,
      signal: this.controller.signal,
      stop: (reason) => this.program.stop(reason),
      suspend: () => this.suspending(),
      track: (resumed) => {
        this.resuming.add(resumed)
        const done = () => {
          this.resuming.delete(resumed)
          if (this.journal?.stop?.kind === 'suspend') this.suspending()
        }
        resumed.then(done, done)
      },
    }
    return answerFromLedger(context, n, name, answer)
  }

  /**
   * End the run: abort the run signal (sub-tools still running see it), abandon queued calls
   * (they never start and emit nothing), wait until every started call has settled, then
   * defer the collected sub-call contexts through the parent in dispatch order.
   */
  async settle(): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.program.dispose()
    this.outerSignal.removeEventListener('abort', this.onOuterAbort)
    this.env.shutdown?.removeEventListener('abort', this.onShutdown)
    // A suspending run lets its started calls finish (they are recorded), bounded by the drain.
    const suspending = this.journal?.stop?.kind === 'suspend'
    if (!suspending) this.controller.abort(new Error('run_code run settled'))
    for (const call of this.pool.close()) {
      call.reject(
        new ToolCallError(call.input.name, 'the run_code program finished before this call started'),
      )
    }
    // Calls still waiting for their turn: admissions now refuse, started calls see the abort.
    this.turns.flush()
    await this.drain()
    this.journal?.freeze()
    if (suspending) this.controller.abort(new Error('run_code run suspended'))
    const contexts = this.contexts
    if (contexts.length > 0) {
      contexts.sort((a, b) => a[0] - b[0])
      for (const [, list] of contexts) for (const context of list) this.exec.deferContext(context)
    }
  }

  /**
   * Wait until every started call has settled, at most `subCallDrainMs`: the run signal has
   * aborted, so a tool still running after that ignores it, and must not hold the run open.
   */
  private async drain(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.env.limits.subCallDrainMs)
    })
    try {
      const idle =
        this.resuming.size === 0
          ? this.pool.idle()
          : Promise.all([this.pool.idle(), Promise.allSettled([...this.resuming])])
      await Promise.race([idle, late])
    } finally {
      clearTimeout(timer)
    }
  }

  private async dispatch(call: SubCall): Promise<void> {
    const { input } = call
    this.running++
    if (call.queuedBytes > 0) this.admission.dequeue(call.queuedBytes)
    const events = this.env.events
    const observed = events.listening('tool/code-dispatch-start') || events.listening('tool/code-dispatch')
    const startTime = observed ? Date.now() : 0
    if (observed) {
      events.emit('tool/code-dispatch-start', input.agent, {
        id: input.callId,
        parent: this.exec.callId,
        parentToken: this.exec.token,
        name: input.name,
        arguments: input.arguments as JsonValue,
        time: startTime,
      })
    }
    let result: ToolExecutionResult | undefined
    let thrown: unknown
    this.journal?.started(call.n, input.name, input.arguments as JsonValue)
    try {
      result = await this.env.tools.execute(input)
    } catch (error) {
      thrown = error
    }
    if (result === undefined) {
      const message = `tool runtime failed: ${describe(thrown)}`
      if (observed) this.emitResult(input, [{ type: 'text', text: `Error: ${message}` }], true, startTime)
      this.running--
      this.admission.settled()
      this.pool.finish(call)
      call.reject(new ToolCallError(input.name, message))
      if (this.journal?.stop?.kind === 'suspend') this.suspending()
      return
    }
    if (result.additionalContexts !== undefined && result.additionalContexts.length > 0) {
      this.contexts.push([call.n, result.additionalContexts])
    }
    if (observed) this.emitResult(input, result.content, result.isError, startTime)
    this.running--
    this.admission.settled()
    this.pool.finish(call)
    if (this.journal?.settled(call.n, result) === true) {
      // The call waits for a person: the run suspends; the program never sees this call settle.
      this.suspending()
      return
    }
    if (this.journal?.stop?.kind === 'suspend') this.suspending()
    if (result.isError) call.reject(new ToolCallError(input.name, result.error.message))
    else call.resolve(result.value)
  }

  private emitResult(
    input: ToolExecutionInput,
    content: ToolContent,
    isError: boolean,
    startTime: number,
  ): void {
    this.env.events.emit('tool/code-dispatch', input.agent, {
      id: input.callId,
      parent: this.exec.callId,
      parentToken: this.exec.token,
      name: input.name,
      content,
      isError,
      startTime,
      endTime: Date.now(),
    })
  }
}

/** The sorted binding names a run may call: the scope's visible tools minus `run_code`. */
export function bindingNames(tools: ToolRuntimePort, agent: string | undefined): string[] {
  const names: string[] = []
  for (const schema of tools.schemas(agent)) if (schema.name !== RESERVED_TOOL_NAME) names.push(schema.name)
  return names.sort()
}

/**
 * Run one program through the bridge. Always settles the bridge (abort, drain, deferred
 * contexts) before returning, whatever the runtime did.
 */
export async function runThroughBridge(
  env: BridgeEnvironment,
  exec: ToolRunContext,
  code: string,
  description: string,
  journal?: RunJournal,
): Promise<CodeRunOutcome> {
  const toolNames = bindingNames(env.tools, exec.agent)
  const bridge = new CodeRunBridge(env, exec, toolNames, journal)
  try {
    return await env.runtime.run({ code, description, toolNames }, bridge)
  } catch (error) {
    return { ok: false, kind: 'exception', message: `code runtime failed: ${describe(error)}`, logs: [] }
  } finally {
    await bridge.settle()
  }
}
