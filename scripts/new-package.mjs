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
    '.': {
      '@dsh/source': './src/index.ts',
      types: './dist/index.d.ts',
      import: './dist/index.js',
      // require() of the same ESM build (Node ≥ 20.19); `pnpm test:pack` checks it is there
      default: './dist/index.js',
    },
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
  publishConfig: {
    access: 'public',
    exports: {
      '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
      './package.json': './package.json',
    },
  },
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
// `pnpm test:pack` runs this line in a clean project: name every @dsh package it depends on too
const tarball = `"$DSH"/dist-tarballs/${name.replace('@', '').replace('/', '-')}-0.1.0.tgz`
write(
  'README.md',
  `# ${name}\n\n${description}\n\n## Install\n\nNot on npm yet: build the tarballs with \`pnpm pack:all\` (see the [root README](../../README.md#install)), then:\n\n\`\`\`sh\nnpm install ${tarball}\n\`\`\`\n`,
)
