/**
 * `pnpm test:pack`'s checks of one packed tarball: its manifest (type, exports with "types" first
 * and "default" last, files, no workspace ranges) and that every bare import of its dist is a
 * declared dependency or peer.
 */
import { readFile } from 'node:fs/promises'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { type Packed, sh } from './pack-packages'

/** Every target a conditional export may point at, with the condition path. */
function exportTargets(value: unknown, path: string): { path: string; target: string }[] {
  if (typeof value === 'string') return [{ path, target: value }]
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, `${path}.${key}`))
}

// Node's own module list, so a bundled dependency importing e.g. `v8` or `http` without the
// `node:` prefix is not mistaken for an undeclared package.
const BUILTIN_NAMES = new Set(builtinModules)
const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || BUILTIN_NAMES.has(specifier) || BUILTIN_NAMES.has(specifier.split('/')[0]!)

function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
}

/**
 * Check a tarball's manifest and contents: each problem goes to `problem`, the summary line to
 * `log`.
 */
export async function checkManifest(
  packed: Packed,
  unpackDir: string,
  problem: (message: string) => void,
  log: (line: string) => void,
): Promise<void> {
  const { manifest, files, name } = packed
  const say = (message: string) => problem(`${name}: ${message}`)
  const has = (target: string) => files.includes(target.replace(/^\.\//, ''))
  if (manifest.type !== 'module') say('"type" is not "module"')
  for (const field of ['dependencies', 'peerDependencies'] as const) {
    for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
      if (spec.startsWith('workspace:') || spec.startsWith('link:') || spec.startsWith('file:')) {
        say(`${field}.${dep} is "${spec}" in the tarball`)
      }
    }
  }
  if (!manifest.files?.includes('dist')) say('"files" does not list dist')
  if (!manifest.types || !has(manifest.types)) say(`"types" (${manifest.types}) is not in the tarball`)
  if (!manifest.main || !has(manifest.main)) say(`"main" (${manifest.main}) is not in the tarball`)
  const dot = manifest.exports?.['.']
  if (!dot) say('no exports["."]')
  for (const { path, target } of exportTargets(dot, 'exports["."]')) {
    if (path.includes('@dsh/source')) continue // workspace-only condition; its source is not published
    if (!has(target)) say(`${path} → ${target} is not in the tarball`)
  }
  const conditions = dot && typeof dot === 'object' ? Object.keys(dot) : []
  const typesAt = conditions.indexOf('types')
  if (typesAt === -1) say('exports["."] has no "types" condition')
  else if (conditions.indexOf('import') < typesAt) say('exports["."].types must come before "import"')
  // require() of the ESM build (Node ≥ 20.19 loads ES modules with require): "default" catches it
  const record = dot as Record<string, unknown> | undefined
  if (conditions.at(-1) !== 'default') say('exports["."] must end with a "default" condition')
  else if (record?.['default'] !== record?.['import']) say('exports["."].default is not the "import" build')
  // Every bare import of the built code must be a declared dependency or peer.
  await sh(['tar', '-xzf', packed.tarball, '-C', unpackDir], unpackDir)
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ])
  const distFiles = files.filter((file) => /^dist\/.*\.(js|d\.ts)$/.test(file))
  const imported = new Set<string>()
  for (const file of distFiles) {
    const text = await readFile(join(unpackDir, 'package', file), 'utf8')
    // static imports/re-exports, dynamic import(), bare `import 'x'`, require('x') and createRequire(…)('x')
    // (not any `)('x')`: a Python kernel's `codecs.getincrementaldecoder("utf-8")("replace")` is no import)
    const pattern =
      /(?:^|[\s;])(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]|(?:\brequire|\bcreateRequire\([^()]*\))\(\s*['"]([^'"./][^'"]*)['"]\s*\)/gm
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? match[4]
      if (!specifier || specifier.startsWith('.') || isBuiltin(specifier)) continue
      imported.add(packageOf(specifier))
    }
  }
  for (const dep of imported)
    if (dep !== name && !declared.has(dep)) say(`dist imports "${dep}" but does not declare it`)
  if (imported.has('@deepseek-ai/cordis') && !manifest.peerDependencies?.['@deepseek-ai/cordis']) {
    say('imports @deepseek-ai/cordis without a peerDependency on it')
  }
  log(`  ${name}@${packed.version}: ${files.length} files, imports [${[...imported].sort().join(', ')}]`)
}
