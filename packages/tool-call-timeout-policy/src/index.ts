// Public API of @dsh/tool-call-timeout-policy: the plugin and its config. The wrapper and the
// deadline it starts are internal; `tests/public-surface.spec.ts` pins this list. Explicit named
// re-exports only.
export { apply, Config, inject, name, type TimeoutPolicyConfig } from './plugin'
