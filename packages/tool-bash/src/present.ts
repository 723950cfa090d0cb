import { resolve } from 'node:path'
import type { ContentPart, JsonValue, ToolCallView, ToolResultRecord, ToolResultView } from '@dsh/tools-core'
import type { BashArgs, BashResult } from './bash-result'

/** The JSON meta persisted with a top-level `bash` result; the terminal card is built from it. */
export interface BashPresentationMeta {
  /** stdout, then stderr (after a `[stderr]` line), as captured. */
  readonly output: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly truncated: boolean
}

/**
 * The working directory a call runs in: `workdir` resolved against the configured default.
 *
 * @param defaultWorkdir — the configured (absolute) default.
 * @param workdir — the call's `workdir` argument, if any.
 */
export function resolveCallWorkdir(defaultWorkdir: string, workdir: string | undefined): string {
  return workdir === undefined ? defaultWorkdir : resolve(defaultWorkdir, workdir)
}

function combinedOutput(value: Pick<BashResult, 'stdout' | 'stderr'>): string {
  const parts: string[] = []
  if (value.stdout !== '') parts.push(value.stdout.replace(/\n$/, ''))
  if (value.stderr !== '') parts.push(`[stderr]\n${value.stderr.replace(/\n$/, '')}`)
  return parts.join('\n')
}

/**
 * The model-facing text of a result: stdout, `[stderr]` + stderr, then status lines —
 * `[timed out after Nms; process group killed]`, `[killed by signal S]`, `[exit code: N]` —
 * or `(no output)` when there is nothing to show.
 *
 * @param value — the canonical value.
 * @param budgetMs — the call's effective budget, named in the timeout line.
 */
export function renderBashText(value: BashResult, budgetMs: number): string {
  const lines: string[] = []
  const output = combinedOutput(value)
  if (output !== '') lines.push(output)
  if (value.timedOut) lines.push(`[timed out after ${budgetMs}ms; process group killed]`)
  else if (value.signal !== null) lines.push(`[killed by signal ${value.signal}]`)
  if (value.exitCode !== null && value.exitCode !== 0) lines.push(`[exit code: ${value.exitCode}]`)
  return lines.length === 0 ? '(no output)' : lines.join('\n')
}

/** The content of a result: one text part (see {@link renderBashText}). */
export function renderBashContent(value: BashResult, budgetMs: number): ContentPart[] {
  return [{ type: 'text', text: renderBashText(value, budgetMs) }]
}

/** Derive the persisted meta from a value (top-level calls only). */
export function bashPresentationMeta(value: BashResult): BashPresentationMeta {
  return {
    output: combinedOutput(value),
    exitCode: value.exitCode,
    signal: value.signal,
    timedOut: value.timedOut,
    truncated: value.truncated,
  }
}

/**
 * The call card: a terminal titled with the command.
 *
 * @param args — the (soft-validated) call arguments.
 * @param defaultWorkdir — the configured default workdir, for `cwd`.
 */
export function presentBashCall(args: BashArgs, defaultWorkdir: string): ToolCallView {
  return {
    card: 'terminal',
    title: args.command,
    description: args.description,
    cwd: resolveCallWorkdir(defaultWorkdir, args.workdir),
  }
}

/**
 * The result card, built from the arguments, the durable record and the persisted meta only
 * (never the value, so live rendering and log replay agree). Without usable meta — a failure,
 * a nested call, an old log — the card shows the record's text content.
 */
export function presentBashResult(
  args: BashArgs,
  record: ToolResultRecord,
  meta: JsonValue | undefined,
): ToolResultView {
  const parsed = readMeta(meta)
  if (parsed !== undefined && !record.isError) {
    return {
      card: 'terminal',
      title: args.command,
      output: parsed.output,
      exitCode: parsed.exitCode,
      signal: parsed.signal,
    }
  }
  const text = record.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
  return { card: 'terminal', title: args.command, output: text }
}

function readMeta(meta: JsonValue | undefined): BashPresentationMeta | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined
  const { output, exitCode, signal, timedOut, truncated } = meta as Record<string, JsonValue | undefined>
  if (typeof output !== 'string') return undefined
  return {
    output,
    exitCode: typeof exitCode === 'number' ? exitCode : null,
    signal: typeof signal === 'string' ? signal : null,
    timedOut: timedOut === true,
    truncated: truncated === true,
  }
}
