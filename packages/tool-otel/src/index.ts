// Public API of @dsh/tool-otel. Explicit named re-exports only; no logic here.
export { ToolSpanAttributes, ToolSpanEvents } from './attributes'
export { apply, Config, default, default as ToolOtel, inject, name, type ToolOtelConfig } from './plugin'
export { TRACER_NAME } from './resolve-tracer'
export { MAX_CAPTURED_PAYLOAD_CHARS } from './span-tracker'
