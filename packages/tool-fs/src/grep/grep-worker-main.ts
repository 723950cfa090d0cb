import type { RE2JS } from 're2js'
import type { GrepFileOutcome, GrepLine, GrepRequest, GrepResponse } from './grep-protocol'

type TruncateLine = (text: string, maxLength: number) => string

/**
 * The grep worker's body. It runs in a worker thread, not here: {@link grepWorkerSource} sends
 * it as text, so it must stay self-contained — everything it uses arrives as a parameter.
 * It compiles the pattern with RE2 (cached across batches), decodes each file as UTF-8 and
 * tests it line by line (BOM and trailing CR removed), keeping the first `keep` matches.
 */
export function grepWorkerMain(
  load: (id: string) => unknown,
  re2jsPath: string,
  truncateLine: TruncateLine,
): void {
  const { parentPort } = load('node:worker_threads') as typeof import('node:worker_threads')
  const { RE2JS: Engine } = load(re2jsPath) as { RE2JS: typeof RE2JS }
  const decoder = new TextDecoder()
  let cached: { key: string; regex: RE2JS } | undefined

  const compile = (request: GrepRequest): RE2JS => {
    const key = `${request.caseInsensitive ? 'i' : '-'}${request.pattern}`
    if (cached?.key !== key) {
      const flags = request.caseInsensitive ? Engine.CASE_INSENSITIVE : 0
      cached = { key, regex: Engine.compile(Engine.translateRegExp(request.pattern), flags) }
    }
    return cached.regex
  }

  const searchText = (regex: RE2JS, text: string, request: GrepRequest): GrepFileOutcome => {
    const matches: GrepLine[] = []
    let count = 0
    let number = 0
    let start = text.charCodeAt(0) === 0xfeff ? 1 : 0
    while (start <= text.length) {
      const newline = text.indexOf('\n', start)
      const end = newline === -1 ? text.length : newline
      if (newline === -1 && start === end) break // after a final newline (or empty file): no extra line
      number++
      let line = text.slice(start, end)
      if (line.endsWith('\r')) line = line.slice(0, -1)
      if (regex.test(line)) {
        count++
        if (matches.length < request.keep)
          matches.push({ number, text: truncateLine(line, request.maxLineLength) })
      }
      if (newline === -1) break
      start = newline + 1
    }
    return { matches, count }
  }

  const handle = (request: GrepRequest): GrepResponse => {
    let regex: RE2JS
    try {
      regex = compile(request)
    } catch (error) {
      return { kind: 'invalid-pattern', message: (error as Error).message }
    }
    return {
      kind: 'searched',
      files: request.files.map((file) => searchText(regex, decoder.decode(file.bytes), request)),
    }
  }

  parentPort!.on('message', (request: GrepRequest) => parentPort!.postMessage(handle(request)))
}
