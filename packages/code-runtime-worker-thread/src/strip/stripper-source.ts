/**
 * Source of the type-stripper thread (started with `eval: true`, like the run workers). It loads
 * amaro once and answers `{ id, code }` requests one at a time with `{ id, ok: true, source }`,
 * `{ id, ok: false, syntax: true, … }` for a program amaro refuses, or `{ id, ok: false, syntax:
 * false, message }` for an internal failure (a stack overflow or trap inside the WebAssembly
 * module). After an internal failure the module's memory may be corrupt, so the thread exits
 * right after answering and the host starts a fresh one for the next program.
 */
export const STRIPPER_SOURCE = `'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const amaro = require(workerData.amaroPath)
amaro.transformSync('0', { mode: 'strip-only' })
parentPort.on('message', (request) => {
  const id = request.id
  try {
    const source = amaro.transformSync(request.code, { mode: 'strip-only' }).code
    parentPort.postMessage({ id, ok: true, source })
  } catch (error) {
    const record = typeof error === 'object' && error !== null ? error : {}
    if (typeof record.code === 'string' && typeof record.message === 'string') {
      parentPort.postMessage({
        id, ok: false, syntax: true, code: record.code, message: record.message,
        startLine: record.startLine, startColumn: record.startColumn,
      })
      return
    }
    const name = typeof record.name === 'string' ? record.name : 'Error'
    const message = typeof record.message === 'string' ? record.message : 'unknown failure'
    parentPort.postMessage({ id, ok: false, syntax: false, message: name + ': ' + message })
    process.exit(0)
  }
})
`
