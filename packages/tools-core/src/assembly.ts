import { isToolsError, type ObjectJsonSchema, PROVIDER_DIALECTS, toProviderSchema } from '@dsh/tools-schema'
import { ToolAssemblyError } from './errors'
import { type HookTable, listenersFor, runWaterfall } from './internal/listeners'
import { missingProviderMessage } from './internal/missing-code-mode'
import type { ToolRegistry } from './registry'
import type { AssembleOptions, NativeToolSpec, PromptSection, ScopeKey, ToolAssembly } from './types'

function freezeSections(value: unknown): readonly PromptSection[] {
  if (!Array.isArray(value)) throw new ToolAssemblyError('the Code Mode provider returned no section list')
  return Object.freeze(
    value.map((section: Partial<PromptSection> | null, index) => {
      if (
        typeof section !== 'object' ||
        section === null ||
        typeof section.id !== 'string' ||
        typeof section.order !== 'number' ||
        typeof section.text !== 'string'
      ) {
        throw new ToolAssemblyError(`Code Mode section ${index} must be { id, order, text }`)
      }
      return Object.freeze({ id: section.id, order: section.order, text: section.text })
    }),
  )
}

function applyToolOrder(
  tools: NativeToolSpec[],
  order: readonly string[] | undefined,
  mode: string,
): NativeToolSpec[] {
  if (order === undefined || order.length === 0) return tools
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const first: NativeToolSpec[] = []
  for (const name of order) {
    const tool = byName.get(name)
    if (tool === undefined) {
      throw new ToolAssemblyError(
        `toolOrder names \`${name}\`, which the \`${mode}\` presentation does not contribute`,
      )
    }
    if (first.includes(tool)) throw new ToolAssemblyError(`toolOrder names \`${name}\` twice`)
    first.push(tool)
  }
  return [...first, ...tools.filter((tool) => !first.includes(tool))]
}

/**
 * Converted definitions by canonical definition and dialect. A compiled tool's native spec is
 * frozen and lives as long as its registration, so every later assembly reuses the conversion.
 */
const converted = new WeakMap<NativeToolSpec, Map<string, NativeToolSpec>>()

/** A native definition with its parameters in a provider dialect (cached per definition). */
function inDialect(tool: NativeToolSpec, dialect: NonNullable<AssembleOptions['dialect']>): NativeToolSpec {
  if (!PROVIDER_DIALECTS.includes(dialect)) {
    throw new ToolAssemblyError(
      `unknown dialect \`${String(dialect)}\` (expected ${PROVIDER_DIALECTS.join(', ')})`,
    )
  }
  let byDialect = converted.get(tool)
  if (byDialect === undefined) {
    byDialect = new Map()
    converted.set(tool, byDialect)
  }
  let spec = byDialect.get(dialect)
  if (spec === undefined) {
    const parameters = toProviderSchema(tool.parameters, dialect).schema as unknown as ObjectJsonSchema
    spec = Object.freeze({ name: tool.name, description: tool.description, parameters })
    byDialect.set(dialect, spec)
  }
  return spec
}

/**
 * Build the registry's prompt contribution for one agent: native function definitions in
 * `native`, the `run_code` transport plus the provider's sections in `code`, both in `both`;
 * then run the `system-prompt/assemble` waterfall, whose result is authoritative.
 */
export function assembleTools(
  registry: ToolRegistry,
  hooks: HookTable,
  agent: ScopeKey | undefined,
  options: AssembleOptions,
): ToolAssembly {
  const { mode, visible } = registry.view(agent)
  let tools: NativeToolSpec[] = mode === 'code' ? [] : visible.map((tool) => tool.nativeSpec)
  let sections: readonly PromptSection[] = Object.freeze([])
  if (mode !== 'native') {
    const installed = registry.provider
    if (installed === undefined) {
      throw new ToolAssemblyError(missingProviderMessage(mode))
    }
    tools.push(installed.transport.nativeSpec)
    const input = { mode, tools: visible.map((tool) => tool.schema) } as Parameters<
      typeof installed.provider.sections
    >[0]
    if (agent !== undefined) (input as { agent?: ScopeKey }).agent = agent
    sections = freezeSections(installed.provider.sections(input))
  }
  tools = applyToolOrder(tools, options.toolOrder, mode)
  if (options.dialect !== undefined) tools = tools.map((tool) => inDialect(tool, options.dialect!))
  const assembly: ToolAssembly = Object.freeze({ mode, tools: Object.freeze(tools), sections })
  const listeners = listenersFor(hooks, 'system-prompt/assemble', agent)
  if (listeners === undefined) return assembly
  const frozenOptions = Object.freeze({ ...options })
  let replaced: ToolAssembly | undefined
  try {
    replaced = runWaterfall(listeners, [assembly, frozenOptions], () => assembly) as ToolAssembly | undefined
  } catch (error) {
    if (isToolsError(error)) throw error
    throw new ToolAssemblyError(
      `a system-prompt/assemble listener failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  if (
    typeof replaced !== 'object' ||
    replaced === null ||
    !Array.isArray(replaced.tools) ||
    !Array.isArray(replaced.sections)
  ) {
    throw new ToolAssemblyError('a system-prompt/assemble listener returned an invalid assembly')
  }
  return replaced
}
