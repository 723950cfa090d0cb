/**
 * Two trivial tools for end-to-end Code Mode tests, one exclusive and one concurrency-safe, so a
 * runtime's tests cover both dispatch paths of the bridge.
 */
import { defineTool } from '@dsh/tools-core'

/** A trivial exclusive tool `add({ a, b }) → number`. */
export const addTool = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  output: { schema: { type: 'number' }, render: (_args, value) => [{ type: 'text', text: String(value) }] },
  execute: (args) => args.a + args.b,
})

/** A trivial concurrency-safe tool `echo({ text }) → string`. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echo text.',
  parameters: { text: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  execute: (args) => args.text,
  isConcurrencySafe: () => true,
})
