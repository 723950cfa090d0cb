/**
 * The naming context of `jsonSchemaToTs`: with one, `$ref` targets render as named type aliases
 * declared once per SDK instead of being inlined.
 */
import { RefNames } from './internal/codegen-refs'
import { toPythonClassName } from './py-render-context'

/**
 * Names a generated type must avoid: the SDK's own and the global types of the ES2022 library
 * (a script-scope `type Map = …` would clash with the lib's `Map`).
 */
const TS_RESERVED: ReadonlySet<string> = new Set([
  'JsonValue',
  'ToolName',
  'ToolArgsMap',
  'ToolOutputMap',
  'ToolCallError',
  'Array',
  'ArrayBuffer',
  'Awaited',
  'BigInt',
  'Boolean',
  'DataView',
  'Date',
  'Error',
  'EvalError',
  'Exclude',
  'Extract',
  'Function',
  'Infinity',
  'Intl',
  'Iterable',
  'Iterator',
  'JSON',
  'Map',
  'Math',
  'NaN',
  'NonNullable',
  'Number',
  'Object',
  'Omit',
  'Parameters',
  'Partial',
  'Pick',
  'Promise',
  'PromiseLike',
  'Proxy',
  'RangeError',
  'Readonly',
  'ReadonlyArray',
  'Record',
  'Reflect',
  'RegExp',
  'Required',
  'ReturnType',
  'Set',
  'String',
  'Symbol',
  'SyntaxError',
  'TypeError',
  'WeakMap',
  'WeakRef',
  'WeakSet',
])

/**
 * Naming context for `jsonSchemaToTs`, shared by every render of one SDK. Referenced schemas
 * (`$ref` into `$defs`/`definitions`/anchors, recursion included) become `type Name = …;`
 * declarations collected here; a render's result refers to them by name.
 */
export interface TsRenderContext {
  /** Name of the type declared for references to a render's root (`#`), e.g. `ReadArgs`. */
  readonly rootName: string
  /** A view sharing this context's registry whose renders name their root `rootName`. */
  named(rootName: string): TsRenderContext
  /** Every declaration, in registration order (dependencies before dependants where acyclic). */
  declarations(): string
  /** Names of the declared types, in registration order. */
  declaredNames(): string[]
  /** Each declaration's name and text, in registration order. */
  entries(): { readonly name: string; readonly text: string }[]
  /** @internal Reserves a collision-free name derived from `stem` (`X`, `X2`, …). */
  reserveName(stem: string): string
  /** @internal Records a declaration under a reserved name. */
  addDeclaration(name: string, text: string): void
  /** @internal Reference names of this SDK. */
  readonly refs: RefNames
}

/** Options for `createTsRenderContext`. */
export interface TsRenderContextOptions {
  /** Root type name for references to `#` (default `Root`). */
  readonly rootName?: string
  /** Extra names generated types must avoid. */
  readonly reservedNames?: Iterable<string>
}

interface Registry {
  readonly used: Set<string>
  readonly nextSuffix: Map<string, number>
  readonly declarations: { name: string; text: string }[]
  readonly refs: RefNames
}

/** Derived names are cut to this many characters (then made unique by a suffix). */
const MAX_STEM_LENGTH = 64

/** One view of a registry (a class, not closures: SDKs create one context per tool). */
class TsContextView implements TsRenderContext {
  constructor(
    private readonly registry: Registry,
    readonly rootName: string,
  ) {}

  get refs(): RefNames {
    return this.registry.refs
  }

  named(name: string): TsRenderContext {
    return new TsContextView(this.registry, toPythonClassName(name))
  }

  reserveName(stem: string): string {
    const { used, nextSuffix } = this.registry
    const base = toPythonClassName(stem).slice(0, MAX_STEM_LENGTH)
    let name = base
    let n = nextSuffix.get(base) ?? 2
    while (used.has(name) || TS_RESERVED.has(name)) name = `${base}${n++}`
    nextSuffix.set(base, n)
    used.add(name)
    return name
  }

  addDeclaration(name: string, text: string): void {
    this.registry.declarations.push({ name, text })
  }

  declarations(): string {
    return this.registry.declarations.map((declaration) => declaration.text).join('\n')
  }

  declaredNames(): string[] {
    return this.registry.declarations.map((declaration) => declaration.name)
  }

  entries(): { readonly name: string; readonly text: string }[] {
    return [...this.registry.declarations]
  }
}

/** Creates a fresh `TsRenderContext` (an empty registry of named types). */
export function createTsRenderContext(options: TsRenderContextOptions = {}): TsRenderContext {
  const registry: Registry = {
    // The fixed reserved names stay in one shared set: a context per tool must be cheap.
    used: new Set(options.reservedNames ?? []),
    nextSuffix: new Map(),
    declarations: [],
    refs: new RefNames(),
  }
  return new TsContextView(registry, toPythonClassName(options.rootName ?? 'Root'))
}
