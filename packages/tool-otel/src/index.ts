// Public API of @dsh/tool-otel: the plugin (a default-exported object, as SPEC §12 has it), its
// config, and the names its spans carry. `tests/public-surface.spec.ts` pins this list.
// Explicit named re-exports only.
export { ToolSpanAttributes, ToolSpanEvents } from './attributes'
export { Config, default, default as ToolOtel, type ToolOtelConfig } from './plugin'
export { TRACER_NAME } from './resolve-tracer'
export { MAX_CAPTURED_PAYLOAD_CHARS } from './span-tracker'
