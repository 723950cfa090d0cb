/**
 * The worker's privileged side of each engine, driven directly over its port: how it batches a
 * flood of log lines and enforces the run's byte and line limits, and (node:vm) that its
 * uncaught-exception path never touches the thrown value.
 */
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import type { CodeEngine } from '../src/index'
import { runWorkerOptions } from '../src/pool/worker-handle'
import { wrapProgram } from '../src/strip/wrap-program'
import { NODE_VM_WORKER_SOURCE } from '../src/worker/node-vm/generated/node-vm-worker-source'
import { QUICKJS_WORKER_SOURCE } from '../src/worker/quickjs/generated/quickjs-worker-source'
import { ENGINES } from './fixtures/engines'

type Message = { k: string; l?: unknown; c?: unknown[]; s?: number; v?: string }

interface DriveOptions {
  readonly engine?: CodeEngine
  readonly limit?: number
  readonly lines?: number
  readonly source?: string
}

function spawn(options: DriveOptions): Worker {
  const engine = options.engine ?? 'node-vm'
  const source = options.source ?? (engine === 'quickjs' ? QUICKJS_WORKER_SOURCE : NODE_VM_WORKER_SOURCE)
  return new Worker(source, runWorkerOptions({ engine, maxOldGenerationSizeMb: 64, computeMs: 60_000 }))
}

/** Boot a worker, run `program` (plain JavaScript) and collect every message until it exits. */
async function drive(program: string, options: DriveOptions = {}): Promise<Message[]> {
  const worker = spawn(options)
  const messages: Message[] = []
  worker.on('message', (message: Message) => {
    messages.push(message)
    if (message.k === 'ready') {
      worker.postMessage({
        k: 'run',
        code: wrapProgram(program),
        names: '[]',
        limit: options.limit ?? 1e9,
        ...(options.lines === undefined ? {} : { lines: options.lines }),
      })
    }
  })
  await new Promise((resolve) => worker.once('exit', resolve))
  return messages
}

/**
 * The flood's lines: about ten batches of 1,024 past the 64 posted at once, so a worker that
 * batched less (or not at all) sends several times the bound; `DSH_LONG=1` floods 100,000.
 */
const FLOOD = process.env.DSH_LONG === '1' ? 100_000 : 10_000

const linesOf = (messages: Message[]) =>
  messages.flatMap((m) => (m.k === 'log' ? [m.l] : m.k === 'logs' ? (m.l as string[]) : []))

describe.each(ENGINES)('log lines from the worker (%s)', (engine) => {
  it('batches a flood of lines into few messages, in order, none lost', async () => {
    const messages = await drive(`for (let i = 0; i < ${FLOOD}; i++) console.log(String(i))`, { engine })
    const lines = linesOf(messages)
    expect(lines).toHaveLength(FLOOD)
    expect(lines.every((line, i) => line === String(i))).toBe(true)
    const logMessages = messages.filter((m) => m.k === 'log' || m.k === 'logs')
    expect(logMessages.length).toBeLessThanOrEqual(64 + Math.ceil(FLOOD / 1024) + 1)
    expect(messages.at(-1)).toEqual({ k: 'done', s: 0, v: undefined })
  })

  it('posts the first lines of a turn at once, so a program stuck afterwards still shows them', async () => {
    const worker = spawn({ engine })
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
        engine,
        limit: 3000,
      })
      expect(linesOf(messages)).toHaveLength(Math.floor(3000 / cost))
      expect(messages.at(-1)).toMatchObject({ k: 'done', s: 3 })
    }
  })

  it('sends pending lines before a call and before the completion', async () => {
    const messages = await drive(
      'for (let i = 0; i < 200; i++) console.log("a")\nconsole.log("last")\nreturn 1',
      { engine },
    )
    const kinds = messages.map((m) => m.k)
    expect(kinds.lastIndexOf('logs')).toBeLessThan(kinds.indexOf('done'))
    expect(linesOf(messages).at(-1)).toBe('last')
  })

  it("stops at the run message's line limit, whatever the lines cost in bytes", async () => {
    for (const text of ['', 'a longer line']) {
      const messages = await drive(`for (let i = 0; i < 1e7; i++) console.log(${JSON.stringify(text)})`, {
        engine,
        lines: 700,
      })
      expect(linesOf(messages)).toHaveLength(700)
      expect(messages.at(-1)).toEqual({ k: 'done', s: 3, v: 'output exceeded maxLogLines (700 lines)' })
    }
    const within = await drive('for (let i = 0; i < 700; i++) console.log(i)\nreturn 1', {
      engine,
      lines: 700,
    })
    expect(within.at(-1)).toEqual({ k: 'done', s: 0, v: '1' })
  })
})

describe('uncaught exceptions in the node:vm worker', () => {
  it('never touch the thrown value (no property read, conversion or inspection)', async () => {
    // A value whose every access reports itself: a property read, a conversion to a string or
    // primitive, and util.inspect (which reads Symbol.for('nodejs.util.inspect.custom')) all
    // go through a trap. Thrown from a privileged timer, it reaches the uncaught path directly.
    const source = `${NODE_VM_WORKER_SOURCE}
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
