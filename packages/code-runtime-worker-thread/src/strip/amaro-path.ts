/**
 * Where the type stripper's amaro is loaded from. The published package carries a verbatim copy
 * of amaro's CommonJS build at `dist/vendor/amaro/` (copied by tsup.config.ts) rather than
 * depending on amaro: amaro's package.json declares Node ≥ 22 for its module-loader hooks, which
 * this package never loads, and would make `npm install --engine-strict` fail on Node 20.19.
 * Run from source (the workspace's tests), the copy does not exist and the devDependency is used.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/** The vendored entry, relative to the built `dist/index.js`. */
export const VENDORED_AMARO = 'vendor/amaro/index.js'

/** The file to `require()` for amaro, given the URL of the module asking (the built bundle's). */
export function amaroPath(moduleUrl: string = import.meta.url): string {
  const vendored = fileURLToPath(new URL(`./${VENDORED_AMARO}`, moduleUrl))
  return existsSync(vendored) ? vendored : createRequire(moduleUrl).resolve('amaro')
}
