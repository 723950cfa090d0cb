import { createRequire } from 'node:module'
import { truncateLine } from '../internal/truncate-line'
import { grepWorkerMain } from './grep-worker-main'

/**
 * The grep worker's source, started with `new Worker(source, { eval: true })` so it needs no
 * file on disk (it works the same from `src` under vitest and from the tsup bundle). The body
 * is the typechecked {@link grepWorkerMain}, turned into text together with the one helper it
 * shares with `read`; RE2 is loaded from the path this package resolves.
 */
export function grepWorkerSource(): string {
  const re2jsPath = createRequire(import.meta.url).resolve('re2js')
  return `'use strict';\n(${grepWorkerMain.toString()})(require, ${JSON.stringify(re2jsPath)}, (${truncateLine.toString()}))\n`
}
