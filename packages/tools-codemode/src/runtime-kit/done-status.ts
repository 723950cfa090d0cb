/**
 * How a program's run ended, as the run thread reports it in its completion message. The
 * statuses are numbers so the completion stays a small structured-clone record.
 */
import type { CodeRunFailureKind } from '../code-runtime'

/** The completion statuses a run thread may report. */
export const DoneStatus = {
  /** The program returned; the payload, if any, is its result's JSON text. */
  OK: 0,
  /** The program raised; the payload is the description the program may see. */
  EXCEPTION: 1,
  /** The program's result is not JSON; the payload says why. */
  INVALID_OUTPUT: 2,
  /** The thread itself stopped the program at the output cap. */
  OUTPUT_LIMIT: 3,
} as const

/** One of the {@link DoneStatus} values. */
export type DoneStatus = (typeof DoneStatus)[keyof typeof DoneStatus]

const failureKinds: Readonly<Record<Exclude<DoneStatus, 0>, CodeRunFailureKind>> = {
  [DoneStatus.EXCEPTION]: 'exception',
  [DoneStatus.INVALID_OUTPUT]: 'invalid-output',
  [DoneStatus.OUTPUT_LIMIT]: 'output-limit',
}

/** The failure kind a status other than `OK` stands for. */
export function failureKindOf(status: Exclude<DoneStatus, 0>): CodeRunFailureKind {
  return failureKinds[status]
}
