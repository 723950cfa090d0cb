/**
 * Type-check the TypeScript samples of the docs against the workspace sources, in one
 * TypeScript program held in memory (nothing is written to disk).
 *
 * Each sample becomes a module of its own. Its imports resolve as they would inside a workspace
 * package (`@dsh/*` through the `@dsh/source` condition, so no build is needed; a third-party
 * import from whichever package depends on it). Names from `snippet-prelude.ts` that the sample
 * uses without declaring are imported for it, and a sample without imports also gets every
 * export of the package whose README it is in: a two-line sample of a method is checked against
 * the method's real signature.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ts from 'typescript'
import { ROOT, type WorkspacePackage } from './workspace'

/** A TypeScript sample of a markdown file. */
export interface TsSample {
  /** The markdown file, relative to the root. */
  readonly file: string
  /** 1-based line of the sample's opening fence. */
  readonly line: number
  readonly code: string
  /** The package whose exports a sample without imports sees. */
  readonly pkg: WorkspacePackage | undefined
}

/** A compiler error in a sample, at its markdown line. */
export interface SampleError {
  readonly file: string
  readonly line: number
  readonly message: string
}

const SUPPORT = dirname(new URL(import.meta.url).pathname)
const PRELUDE = join(SUPPORT, 'snippet-prelude.ts')
const STUBS = join(SUPPORT, 'uninstalled-modules.d.ts')
const VIRTUAL_DIR = join(ROOT, '.docs-check')

/** Type-check every sample; an empty list means all compile. */
export function checkTsSamples(
  samples: readonly TsSample[],
  packages: readonly WorkspacePackage[],
): SampleError[] {
  const options = compilerOptions()
  const preludeNames = exportedNames(parse(PRELUDE, readFileSync(PRELUDE, 'utf8')))
  const virtual = new Map<string, { sample: TsSample; text: string }>()
  for (const [index, sample] of samples.entries()) {
    const path = join(VIRTUAL_DIR, `${sample.file.replaceAll('/', '__')}__${sample.line}__${index}.ts`)
    virtual.set(path, { sample, text: withHeader(sample, preludeNames) })
  }

  const host = ts.createCompilerHost(options, true)
  const cache = ts.createModuleResolutionCache(ROOT, (name) => name, options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (fileName, language, onError, create) => {
    const entry = virtual.get(fileName)
    return entry
      ? ts.createSourceFile(fileName, entry.text, language, true)
      : getSourceFile(fileName, language, onError, create)
  }
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists(fileName)
  host.readFile = (fileName) => virtual.get(fileName)?.text ?? readFile(fileName)
  // Samples and the prelude live outside every package: resolve their imports from inside each
  // workspace package in turn, as a reader's code that depends on them would.
  const resolveAnywhere = (name: string, from: string) => {
    for (const dir of [dirname(from), ...packages.map((pkg) => pkg.dir)]) {
      const found = ts.resolveModuleName(name, join(dir, 'index.ts'), options, host, cache).resolvedModule
      if (found) return found
    }
    return undefined
  }
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => ({
      resolvedModule:
        virtual.has(containingFile) || containingFile.startsWith(`${SUPPORT}/`)
          ? resolveAnywhere(literal.text, containingFile)
          : ts.resolveModuleName(literal.text, containingFile, options, host, cache).resolvedModule,
    }))

  const program = ts.createProgram({ rootNames: [STUBS, ...virtual.keys()], options, host })
  const errors: SampleError[] = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (diagnostic) => ({ file: '(compiler options)', line: 0, message: flatten(diagnostic) }),
  )
  for (const support of [PRELUDE, STUBS]) {
    const source = program.getSourceFile(support)
    if (source === undefined) continue
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ])
      errors.push({ file: support.slice(ROOT.length), line: 0, message: flatten(diagnostic) })
  }
  for (const [path, { sample }] of virtual) {
    const source = program.getSourceFile(path)!
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]) {
      const at = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line
      errors.push({ file: sample.file, line: sample.line + Math.max(at, 1), message: flatten(diagnostic) })
    }
  }
  return errors
}

/** The sample as a module: one header line of imports, the sample from line 2, `export {}`. */
function withHeader(sample: TsSample, preludeNames: readonly string[]): string {
  const source = parse('sample.ts', sample.code)
  const declared = declaredNames(source)
  const isProgram = source.statements.some(
    (statement) => ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement),
  )
  const fromPrelude = preludeNames.filter((name) => !declared.has(name))
  const fromPackage =
    isProgram || sample.pkg?.barrel === undefined
      ? []
      : exportedNames(parse(sample.pkg.barrel, readFileSync(sample.pkg.barrel, 'utf8'))).filter(
          (name) => !declared.has(name) && !fromPrelude.includes(name),
        )
  const imports = [
    fromPackage.length > 0 ? `import { ${fromPackage.join(', ')} } from '${sample.pkg!.name}';` : '',
    fromPrelude.length > 0
      ? `import { ${fromPrelude.join(', ')} } from '${PRELUDE.replace(/\.ts$/, '')}';`
      : '',
  ]
  return `${imports.join(' ')}\n${sample.code}\nexport {}\n`
}

function parse(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
}

/** Names a module exports by name (`export { a, b as c }`, `export * as ns`, `export declare const x`). */
export function exportedNames(source: ts.SourceFile): string[] {
  const names: string[] = []
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (clause && ts.isNamedExports(clause))
        names.push(...clause.elements.map((element) => element.name.text))
      else if (clause && ts.isNamespaceExport(clause)) names.push(clause.name.text)
    } else if (ts.canHaveModifiers(statement) && hasExport(statement)) {
      names.push(...namesOf(statement))
    }
  }
  return names.filter((name) => name !== 'default')
}

/** Names a module declares at its top level (imports included). */
function declaredNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      if (clause?.name) names.add(clause.name.text)
      const bindings = clause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text)
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.add(element.name.text)
    } else for (const name of namesOf(statement)) names.add(name)
  }
  return names
}

function namesOf(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((declaration) => bindingNames(declaration.name))
  const named = statement as { name?: ts.Node }
  return named.name !== undefined && ts.isIdentifier(named.name) ? [named.name.text] : []
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text]
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : bindingNames(element.name),
  )
}

function hasExport(node: ts.HasModifiers): boolean {
  return ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false
}

function configHost(): ts.ParseConfigFileHost {
  return { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }
}

/** The repository's base options, made to check (not emit) modules that import by type and by value alike. */
function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.base.json'), {}, configHost())
  if (parsed === undefined) throw new Error('cannot read tsconfig.base.json')
  return {
    ...parsed.options,
    noEmit: true,
    // A sample imports a type the way a reader would, without `import type`.
    verbatimModuleSyntax: false,
    isolatedModules: false,
    skipLibCheck: true,
  }
}

function flatten(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
}
