import type { ToolDefinition } from '../types'
import { canonicalJson, sha256Hex } from './canonical-json'

/**
 * The definition fingerprint an approval is bound to (SPEC §13.2): the SHA-256 of the canonical
 * JSON of the tool's name, parameters, output schema and annotations. A person approved a call
 * of *this* tool; when any of those change between the approval and its resume, the resume is
 * refused as `APPROVAL_INVALID`. The description is left out on purpose: rewording a prompt
 * does not change what a call does.
 *
 * @example
 * toolFingerprint(ctx.tools.get('deploy')!) // '3f1c…' (64 hex digits)
 */
export function toolFingerprint(
  definition: Pick<ToolDefinition, 'name' | 'parameters' | 'output' | 'annotations'>,
): string {
  return sha256Hex(
    canonicalJson({
      name: definition.name,
      parameters: definition.parameters,
      output: definition.output.schema,
      annotations: definition.annotations ?? {},
    }),
  )
}

/** The SHA-256 of a call's canonical arguments, as an approval record stores it. */
export function argumentsHash(args: unknown): string {
  return sha256Hex(canonicalJson(args))
}
