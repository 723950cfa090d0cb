/**
 * The cordis service: registers a {@link PyodideRuntime} as `ctx.codeRuntime` and disposes it —
 * terminating and awaiting every worker, warm ones included — when its fiber ends (the runtime
 * kit's `CodeRuntimeService`).
 */
import type { Context } from '@deepseek-ai/cordis'
import { CodeRuntimeService } from '@dsh/tools-codemode/runtime-kit'
import { PyodideRuntimeConfigSchema, resolvePyodideRuntimeConfig } from './config'
import { PyodideRuntime } from './pyodide-runtime'
import type { PyodideRuntimeConfig } from './types'

/**
 * `CodeRuntime` service (ctx key `codeRuntime`) running Python programs, each in a fresh
 * Pyodide interpreter in its own worker thread. Plug it with `ctx.plugin(PyodideCodeRuntime, config)`.
 */
export class PyodideCodeRuntime extends CodeRuntimeService<PyodideRuntime> {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = PyodideRuntimeConfigSchema

  /** Always `'python'`. */
  readonly language = 'python' as const

  constructor(ctx: Context, config?: PyodideRuntimeConfig) {
    super(ctx, new PyodideRuntime(resolvePyodideRuntimeConfig(config)), 'code-runtime-pyodide/workers')
  }
}
