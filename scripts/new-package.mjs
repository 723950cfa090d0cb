// Scaffolds packages/<dir> with the layout CONVENTIONS.md describes. Usage:
// node scripts/new-package.mjs <dir> <npm-name> "<description>"
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [dir, name, description] = process.argv.slice(2)
if (!dir || !name || !description) throw new Error('usage: new-package <dir> <npm-name> <description>')
const root = join('packages', dir)
if (existsSync(root)) throw new Error(`${root} exists`)
mkdirSync(join(root, 'src'), { recursive: true })
mkdirSync(join(root, 'tests'), { recursive: true })

const pkg = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=20.19' },
  exports: {
    '.': { '@dsh/source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' },
    './package.json': './package.json',
  },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist'],
  scripts: {
    build: 'tsup',
    test: 'vitest run',
    typecheck: 'tsc -p tsconfig.json',
    clean: 'rm -rf dist',
  },
  publishConfig: { access: 'public' },
}
const write = (file, text) => writeFileSync(join(root, file), text)
write('package.json', `${JSON.stringify(pkg, null, 2)}\n`)
write(
  'tsconfig.json',
  `${JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src', 'tests', '*.ts'] }, null, 2)}\n`,
)
write(
  'tsup.config.ts',
  "import { sharedTsupConfig } from '../../tsup.shared.ts'\n\nexport default sharedTsupConfig\n",
)
write(
  'vitest.config.ts',
  `import { sharedConfig } from '../../vitest.shared.ts'

export default sharedConfig
`,
)
write('src/index.ts', 'export {}\n')
write('README.md', `# ${name}\n\n${description}\n`)
