/**
 * The host-side limits of one run, applied to every binding call before any work is queued:
 * how many calls a run may make, how many may be outstanding, how large one call's arguments
 * may be (counted while they are read), and how many argument bytes may wait in the queue.
 * They hold for every `CodeRuntime`, whatever language the program is written in.
 */

import {
  isToolsError,
  JsonBudgetError,
  type JsonSnapshot,
  type JsonValue,
  snapshotJsonMeasured,
} from '@dsh/tools-core'
import { snapshotJsonText } from '@dsh/tools-schema'
import type { CodeModeConfig } from './config'
import { countNoun } from './runtime-kit/count-noun'
import { type JsonShapeIssue, jsonTextShapeIssue } from './runtime-kit/json-text-shape'

/** A call's arguments admitted: the snapshot, its JSON values and its size in queue bytes. */
export interface AdmittedArguments {
  readonly ok: true
  readonly value: JsonValue
  readonly nodes: number
  readonly bytes: number
}

/** A call refused, with the message its `ToolCallError` carries. */
export interface RefusedCall {
  readonly ok: false
  readonly message: string
}

/** The limits the admission enforces (the numeric Code Mode config). */
export type SubCallLimits = Required<CodeModeConfig>

function budgetMessage(error: JsonBudgetError, limits: SubCallLimits): string {
  const [key, max, unit] =
    error.limit === 'maxNodes'
      ? ['maxArgumentNodes', limits.maxArgumentNodes, 'JSON values']
      : ['maxArgumentStringLength', limits.maxArgumentStringLength, 'string code units']
  return (
    `arguments too large: counting stopped at ${error.path}, past the Code Mode limit \`${key}\` ` +
    `(${max} ${unit} per call; a shared reference counts at every occurrence)`
  )
}

/** The refusal of argument text that its scan found over a limit, before it was parsed. */
function shapeMessage(issue: JsonShapeIssue): string {
  return issue.limit === 'maxNodes'
    ? `arguments too large: more than ${countNoun(issue.max, 'JSON value')}, past the Code Mode limit \`maxArgumentNodes\` (${countNoun(issue.max, 'JSON value')} per call)`
    : `arguments too deep: more than ${countNoun(issue.max, 'level')} of arrays and objects, past the Code Mode limit \`maxArgumentDepth\``
}

/** An admitted snapshot; its queue bytes are its string code units plus one per JSON value. */
function admitted(snapshot: JsonSnapshot): AdmittedArguments {
  return {
    ok: true,
    value: snapshot.value,
    nodes: snapshot.nodes,
    bytes: snapshot.stringLength + snapshot.nodes,
  }
}

/** Per-run counters. One instance per run; not shared. */
export class SubCallAdmission {
  private attempts = 0
  private outstanding = 0
  private queuedBytes = 0

  constructor(private readonly limits: SubCallLimits) {}

  /**
   * Count one binding call, whatever becomes of it. Refused once the run has used up
   * `maxSubCallsPerRun`: such calls never reach policy or a tool.
   */
  count(): RefusedCall | undefined {
    const max = this.limits.maxSubCallsPerRun
    if (++this.attempts <= max) return undefined
    return {
      ok: false,
      message: `call limit reached: a run_code program may make at most ${max} tool calls (Code Mode limit \`maxSubCallsPerRun\`)`,
    }
  }

  /**
   * Snapshot a counted call's arguments under the per-call budgets. Refused when
   * `maxOutstandingSubCalls` calls are already queued or running, or when the arguments are
   * lossy or over budget. `undefined`-valued object properties are dropped, as `JSON.stringify`
   * drops them: a program writes an absent optional argument that way.
   */
  admit(args: unknown): AdmittedArguments | RefusedCall {
    const busy = this.busy()
    if (busy !== undefined) return busy
    try {
      return admitted(
        snapshotJsonMeasured(args, {
          omitUndefinedProperties: true,
          maxNodes: this.limits.maxArgumentNodes,
          maxStringLength: this.limits.maxArgumentStringLength,
        }),
      )
    } catch (error) {
      return this.refusal(error)
    }
  }

  /**
   * {@link admit} for arguments handed over as JSON text. The admission parses the text itself,
   * so it owns the parsed tree: no one else can reach or change it, and text holds no shared
   * references, cycles or non-plain values. The per-call copy and check of `admit` reduce to
   * one counting pass under the same budgets (same totals, same refusals) that freezes the tree
   * in place.
   */
  admitJson(argsJson: string): AdmittedArguments | RefusedCall {
    const busy = this.busy()
    if (busy !== undefined) return busy
    // One scan before the parse: text of a million keys is refused for the cost of reading it.
    const shape = jsonTextShapeIssue(argsJson, {
      maxNodes: this.limits.maxArgumentNodes,
      maxDepth: this.limits.maxArgumentDepth,
    })
    if (shape !== undefined) return { ok: false, message: shapeMessage(shape) }
    try {
      return admitted(
        snapshotJsonText(argsJson, {
          maxNodes: this.limits.maxArgumentNodes,
          maxStringLength: this.limits.maxArgumentStringLength,
        }),
      )
    } catch (error) {
      return this.refusal(error)
    }
  }

  /**
   * Reserve queue room for an admitted call that must wait. Returns the refusal when its bytes
   * would take the run's queued total past `maxQueuedArgumentBytes`.
   */
  enqueue(bytes: number): RefusedCall | undefined {
    const max = this.limits.maxQueuedArgumentBytes
    if (this.queuedBytes + bytes > max) {
      return {
        ok: false,
        message:
          `too many argument bytes queued: this call's ${bytes} bytes would take the run's queue past ` +
          `${max} bytes; await earlier calls first (Code Mode limit \`maxQueuedArgumentBytes\`)`,
      }
    }
    this.queuedBytes += bytes
    return undefined
  }

  /** A queued call left the queue (it started). */
  dequeue(bytes: number): void {
    this.queuedBytes -= bytes
  }

  /** A call was submitted; it is outstanding until {@link settled}. */
  submitted(): void {
    this.outstanding++
  }

  /** A submitted call settled. */
  settled(): void {
    this.outstanding--
  }

  /** The refusal when `maxOutstandingSubCalls` calls are already queued or running. */
  private busy(): RefusedCall | undefined {
    if (this.outstanding < this.limits.maxOutstandingSubCalls) return undefined
    return {
      ok: false,
      message:
        `too many outstanding calls: ${this.outstanding} tool calls of this run are already queued ` +
        'or running; await some before making more (Code Mode limit `maxOutstandingSubCalls`)',
    }
  }

  /** Why a snapshot failed, as the call's refusal. */
  private refusal(error: unknown): RefusedCall {
    if (error instanceof JsonBudgetError) return { ok: false, message: budgetMessage(error, this.limits) }
    const detail = isToolsError(error) || error instanceof Error ? error.message : String(error)
    return { ok: false, message: `arguments are not lossless JSON: ${detail}` }
  }
}
