// Public API of @dsh/process-tree. Explicit named re-exports only; no logic here.
export { ProcessTree, type SignalOptions } from './process-tree'
