/**
 * Checks a DSL scalar spec's `enum` / `const` members against its own bounds, so a member the
 * validator could never accept (`{ type: 'integer', minimum: 5, enum: [1, 5] }`) is a
 * definition error, not a silent dead branch the model is still shown.
 */
import type { JsonSchemaNode } from '../types'
import { checkerBudget } from './checker-budget'
import { compileSchema } from './compile-schema'
import { beginValidation, endValidation } from './json-intern'
import { runChecker } from './run-checker'

/** Why `value` breaks the bounds of `node` (its `enum` and `const` left out), or `undefined`. */
export function boundViolation(node: JsonSchemaNode, value: unknown): string | undefined {
  const { enum: _enum, const: _const, ...bounds } = node
  const { root } = compileSchema(bounds, {})
  const outer = beginValidation()
  try {
    return runChecker(root, value, checkerBudget(value))[0]?.message
  } finally {
    endValidation(outer)
  }
}
