// Public API of @dsh/tools-core. Explicit named re-exports only; no logic here.
export type * from './types'
import './events'
