/**
 * The worker's privileged side, driven directly over its port: how it batches a flood of log
 * lines, and that its uncaught-exception path never touches the thrown value.
 */
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { runWorkerOptions } from '../src/pool/worker-handle'
import { wrapProgram } from '../src/strip/wrap-program'
import { BOOTSTRAP_SOURCE } from '../src/worker/bootstrap-source'

type Message = { k: string; l?: unknown; c?: unknown[]; s?: number; v?: string }

/** Boot a worker from `source`, run `program` (plain JavaScript) and collect every message until it exits. */
async function drive(program: string, options: { limit?: number; source?: string } = {}): Promise<Message[]> {
  const worker = new Worker(
    options.source ?? BOOTSTRAP_SOURCE,
    runWorkerOptions({ maxOldGenerationSizeMb: 64 }),
  )
  const messages: Message[] = []
  worker.on('message', (message: Message) => {
    messages.push(message)
    if (message.k === 'ready') {
      worker.postMessage({ k: 'run', code: wrapProgram(program), names: '[]', limit: options.limit ?? 1e9 })
    }
  })
  await new Promise((resolve) => worker.once('exit', resolve))
  return messages
}

const linesOf = (messages: Message[]) =>
  messages.flatMap((m) => (m.k === 'log' ? [m.l] : m.k === 'logs' ? (m.l as string[]) : []))

describe('log lines from the worker', () => {
  it('batches a flood of lines into few messages, in order, none lost', async () => {
    const messages = await drive('for (let i = 0; i < 100000; i++) console.log(String(i))')
    const lines = linesOf(messages)
    expect(lines).toHaveLength(100_000)
    expect(lines.every((line, i) => line === String(i))).toBe(true)
    const logMessages = messages.filter((m) => m.k === 'log' || m.k === 'logs')
    expect(logMessages.length).toBeLessThanOrEqual(64 + Math.ceil(100_000 / 1024) + 1)
    expect(messages.at(-1)).toEqual({ k: 'done', s: 0, v: undefined })
  })

  it('posts the first lines of a turn at once, so a program stuck afterwards still shows them', async () => {
    const worker = new Worker(BOOTSTRAP_SOURCE, runWorkerOptions({ maxOldGenerationSizeMb: 64 }))
    const lines: unknown[] = []
    await new Promise<void>((resolve) => {
      worker.on('message', (message: Message) => {
        if (message.k === 'ready') {
          const program = 'for (let i = 0; i < 10; i++) console.log("line " + i)\nwhile (true) {}'
          worker.postMessage({ k: 'run', code: wrapProgram(program), names: '[]', limit: 1e9 })
        }
        if (message.k === 'log') lines.push(message.l)
        if (lines.length === 10) resolve()
      })
    })
    await worker.terminate()
    expect(lines).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`))
  })

  it('charges every line at least one byte, empty ones included', async () => {
    for (const [text, cost] of [
      ['', 1],
      ['x', 2],
      ['é', 3],
    ] as const) {
      const messages = await drive(`for (let i = 0; i < 1e7; i++) console.log(${JSON.stringify(text)})`, {
        limit: 3000,
      })
      expect(linesOf(messages)).toHaveLength(Math.floor(3000 / cost))
      expect(messages.at(-1)).toMatchObject({ k: 'done', s: 3 })
    }
  })

  it('sends pending lines before a call and before the completion', async () => {
    const messages = await drive(
      'for (let i = 0; i < 200; i++) console.log("a")\nconsole.log("last")\nreturn 1',
    )
    const kinds = messages.map((m) => m.k)
    expect(kinds.lastIndexOf('logs')).toBeLessThan(kinds.indexOf('done'))
    expect(linesOf(messages).at(-1)).toBe('last')
  })
})

describe('uncaught exceptions in the worker', () => {
  it('never touch the thrown value (no property read, conversion or inspection)', async () => {
    // A value whose every access reports itself: a property read, a conversion to a string or
    // primitive, and util.inspect (which reads Symbol.for('nodejs.util.inspect.custom')) all
    // go through a trap. Thrown from a privileged timer, it reaches the uncaught path directly.
    const source = `${BOOTSTRAP_SOURCE}
const { parentPort: port } = require('node:worker_threads')
const report = (what) => { try { port.postMessage({ k: 'touched', l: String(what) }) } catch {} ; return undefined }
const hostile = new Proxy(function () {}, {
  get: (_, key) => report(typeof key === 'symbol' ? key.description : key),
  has: (_, key) => report('has ' + String(key)) ?? false,
  getOwnPropertyDescriptor: (_, key) => report('own ' + String(key)),
  getPrototypeOf: () => report('prototype') ?? null,
  ownKeys: () => { report('keys'); return ['prototype'] },
  apply: () => report('apply'),
})
port.on('message', (message) => {
  if (message.k !== 'run') return
  Promise.reject(hostile)
  setTimeout(() => { throw hostile }, 5)
})
`
    const messages = await drive('await new Promise(() => {})', { source })
    expect(messages.filter((m) => m.k === 'touched')).toEqual([])
    expect(messages.at(-1)).toEqual({
      k: 'done',
      s: 1,
      v: 'internal worker error: an exception escaped the program guard',
    })
  })
})
