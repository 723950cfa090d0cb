import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as wordCount from '../src/index'

let ctx: Context
const signal = new AbortController().signal

beforeEach(async () => {
  ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(wordCount, { maxTop: 3 })
})

afterEach(async () => {
  await ctx.fiber.dispose()
})

describe('word_count', () => {
  it('counts lines, words and characters and lists the top words', async () => {
    const result = await ctx.tools.execute({
      callId: 'c1',
      name: 'word_count',
      arguments: { text: 'the cat and the hat\nthe end\n', top: 2 },
      signal,
    })
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(result.value).toEqual({
      lines: 2,
      words: 7,
      characters: 28,
      topWords: [
        { word: 'the', count: 3 },
        { word: 'and', count: 1 },
      ],
    })
    expect(result.content).toEqual([
      { type: 'text', text: '2 lines, 7 words, 28 characters\nthe: 3\nand: 1' },
    ])
  })

  it('rejects arguments that do not match the schema before the body runs', async () => {
    const result = await ctx.tools.execute({
      callId: 'c2',
      name: 'word_count',
      arguments: { text: 42 },
      signal,
    })
    expect(result.isError).toBe(true)
    if (!result.isError) return
    expect(result.error.info?.code).toBe('INVALID_ARGS')
  })

  it('turns a body error (top above the configured cap) into a TOOL_FAILED result', async () => {
    const result = await ctx.tools.execute({
      callId: 'c3',
      name: 'word_count',
      arguments: { text: 'a', top: 9 },
      signal,
    })
    expect(result.isError).toBe(true)
    if (!result.isError) return
    expect(result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.content).toEqual([{ type: 'text', text: 'Error: top must be between 0 and 3' }])
  })

  it('is scheduled as parallel and shows up in schemas()', () => {
    expect(
      ctx.tools.executionMode({ callId: 'c4', name: 'word_count', arguments: { text: 'x' }, signal }),
    ).toBe('parallel')
    const schema = ctx.tools.schemas().find((entry) => entry.name === 'word_count')
    expect(schema?.parameters).toMatchObject({ type: 'object', required: ['text'] })
  })

  it('is removed when the plugin fiber is disposed', async () => {
    const child = new Context()
    await child.plugin(ToolRuntime)
    const fiber = await child.plugin(wordCount)
    expect(child.tools.get('word_count')).toBeDefined()
    await fiber.dispose()
    expect(child.tools.get('word_count')).toBeUndefined()
    await child.fiber.dispose()
  })

  it('rejects an invalid config', async () => {
    const child = new Context()
    await child.plugin(ToolRuntime)
    const fiber = child.plugin(wordCount, { maxTop: 0 })
    await expect(Promise.resolve(fiber)).rejects.toThrow(/maxTop/)
    await child.fiber.dispose()
  })
})
