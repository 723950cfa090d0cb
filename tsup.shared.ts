import type { Options } from 'tsup'

/** The build every package shares: one ESM entry with its declarations, for Node 20. */
export const sharedTsupConfig: Options = {
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  sourcemap: true,
}
