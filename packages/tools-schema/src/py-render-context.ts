import { RefNames } from './internal/codegen-refs'

/** Python keywords: never legal `TypedDict` attribute or class names. */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
])

const DEFAULT_RESERVED = [
  'Any',
  'TypedDict',
  'NotRequired',
  'Literal',
  'Union',
  'TypeAlias',
  'JsonValue',
  'str',
  'int',
  'float',
  'bool',
  'list',
  'dict',
  'object',
  'type',
]

/**
 * Naming context for `jsonSchemaToPy`: with it, object schemas render as named `TypedDict`
 * classes collected in the context instead of `dict[str, Any]`. Several renders can share one
 * context (one per SDK): use `named(baseName)` to get a view that names the next render's root
 * class, then `declarations()` for every class text in registration order (children before
 * parents), separated by blank lines.
 */
export interface PyRenderContext {
  /** Base name of the root TypedDict of a render through this context, e.g. `ReadArgs`. */
  readonly baseName: string
  /** A view sharing this context's registry whose renders name their root `baseName`. */
  named(baseName: string): PyRenderContext
  /** Reserves and returns a collision-free class name derived from `base` (`X`, `X2`, `X3`, …). */
  reserveName(base: string): string
  /** Registers a class declaration under a reserved name (called by `jsonSchemaToPy`). */
  addDeclaration(name: string, text: string): void
  /** Every registered class declaration, in registration order, separated by blank lines. */
  declarations(): string
  /** Names of the registered classes, in registration order. */
  declaredNames(): string[]
  /** @internal Reference names of this SDK (`$ref` targets → declared names). */
  readonly refs: RefNames
}

/** Options for `createPyRenderContext`. */
export interface PyRenderContextOptions {
  /** Root class name for renders through the returned context (default `Model`). */
  readonly baseName?: string
  /** Extra names that generated classes must avoid (e.g. SDK symbols such as `tools`). */
  readonly reservedNames?: Iterable<string>
}

interface Registry {
  readonly used: Set<string>
  /** Next numeric suffix to try per stem, so reservations stay O(1) amortised. */
  readonly nextSuffix: Map<string, number>
  readonly declarations: { name: string; text: string }[]
  readonly refs: RefNames
}

/** Derived class names are cut to this many characters (then made unique by a suffix). */
const MAX_STEM_LENGTH = 64

/** Turns arbitrary text into a PascalCase Python identifier (`read-file` → `ReadFile`). */
export function toPythonClassName(text: string): string {
  const parts = text.split(/[^A-Za-z0-9]+/).filter((part) => part.length > 0)
  let name = parts.map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')
  if (name.length === 0) name = 'Model'
  if (/^[0-9]/.test(name)) name = `_${name}`
  return name
}

function contextView(registry: Registry, baseName: string): PyRenderContext {
  return {
    baseName,
    refs: registry.refs,
    named: (name) => contextView(registry, toPythonClassName(name)),
    reserveName(base) {
      const stem = toPythonClassName(base).slice(0, MAX_STEM_LENGTH)
      let name = stem
      let n = registry.nextSuffix.get(stem) ?? 2
      while (registry.used.has(name) || PYTHON_KEYWORDS.has(name)) name = `${stem}${n++}`
      registry.nextSuffix.set(stem, n)
      registry.used.add(name)
      return name
    },
    addDeclaration(name, text) {
      registry.declarations.push({ name, text })
    },
    declarations: () => registry.declarations.map((declaration) => declaration.text).join('\n\n'),
    declaredNames: () => registry.declarations.map((declaration) => declaration.name),
  }
}

/**
 * Creates a fresh `PyRenderContext` (an empty class registry). Typical SDK use:
 * `const ctx = createPyRenderContext()`; for each tool `jsonSchemaToPy(schema, ctx.named('ReadArgs'))`
 * returns the type to reference (`ReadArgs`); finally emit `ctx.declarations()`.
 */
export function createPyRenderContext(options: PyRenderContextOptions = {}): PyRenderContext {
  const registry: Registry = {
    used: new Set([...DEFAULT_RESERVED, ...(options.reservedNames ?? [])]),
    nextSuffix: new Map(),
    declarations: [],
    refs: new RefNames(),
  }
  return contextView(registry, toPythonClassName(options.baseName ?? 'Model'))
}
