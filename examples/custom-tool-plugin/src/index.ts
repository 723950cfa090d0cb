// Public API of the example plugin: the plugin, its config and the tool's value type; the tool's
// definition and counting stay internal (`tests/public-surface.spec.ts` pins this list). Load it
// with `ctx.plugin(wordCount, config)` after importing it as a namespace:
// `import * as wordCount from '@dsh/example-custom-tool-plugin'`.
export { apply, Config, inject, name, type WordCountConfig } from './plugin'
export type { WordCountValue } from './word-count-tool'
