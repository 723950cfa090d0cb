/**
 * The `word_count` tool: counts lines, words and characters of a text and lists its most
 * frequent words. Small, pure and concurrency-safe — the shape of most third-party tools.
 */
import { defineTool, type ToolDefinition } from '@dsh/tools-core'

/** The tool's canonical value. */
export interface WordCountValue {
  readonly lines: number
  readonly words: number
  readonly characters: number
  readonly topWords: { readonly word: string; readonly count: number }[]
}

/** Count `text`; `top` most frequent words (ties in alphabetical order), case-insensitive. */
export function countWords(text: string, top: number): WordCountValue {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []
  const counts = new Map<string, number>()
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1)
  const topWords = [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }))
  return {
    lines: text === '' ? 0 : text.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(text) ? 1 : 0),
    words: words.length,
    characters: [...text].length,
    topWords,
  }
}

/** Build the `word_count` definition; `maxTop` caps how many top words a call may ask for. */
export function createWordCountTool(maxTop: number) {
  return defineTool({
    name: 'word_count',
    description: 'Count the lines, words and characters of a text and list its most frequent words.',
    parameters: {
      text: { type: 'string', required: true, description: 'The text to count.' },
      top: {
        type: 'integer',
        description: `How many of the most frequent words to list (default 5, at most ${maxTop}).`,
      },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          lines: { type: 'integer', required: true },
          words: { type: 'integer', required: true },
          characters: { type: 'integer', required: true, description: 'Unicode code points.' },
          topWords: {
            type: 'array',
            required: true,
            items: {
              type: 'object',
              additionalProperties: false,
              properties: {
                word: { type: 'string', required: true },
                count: { type: 'integer', required: true },
              },
            },
          },
        },
      },
      render: (_args, value) => [
        {
          type: 'text',
          text: [
            `${value.lines} lines, ${value.words} words, ${value.characters} characters`,
            ...value.topWords.map((entry) => `${entry.word}: ${entry.count}`),
          ].join('\n'),
        },
      ],
    },
    execute(args) {
      if (args.top !== undefined && (args.top < 0 || args.top > maxTop)) {
        throw new RangeError(`top must be between 0 and ${maxTop}`)
      }
      return countWords(args.text, args.top ?? Math.min(5, maxTop))
    },
    // Pure computation: any number of calls may overlap.
    isConcurrencySafe: () => true,
    presentCall: (args) => ({
      card: 'generic',
      title: 'Count words',
      kind: 'read',
      content: `${[...args.text].length} characters`,
    }),
  }) satisfies ToolDefinition
}
