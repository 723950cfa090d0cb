// Public API of the example plugin. Load it with `ctx.plugin(wordCount, config)` after importing
// it as a namespace: `import * as wordCount from '@dsh/example-custom-tool-plugin'`.
export { apply, Config, inject, name, type WordCountConfig } from './plugin'
export { countWords, createWordCountTool, type WordCountValue } from './word-count-tool'
