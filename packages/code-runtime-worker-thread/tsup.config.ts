import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'tsup'
import { sharedTsupConfig } from '../../tsup.shared.ts'
import { VENDORED_AMARO } from './src/strip/amaro-path'

/**
 * amaro ships in dist/ instead of as a dependency: its package.json declares Node ≥ 22 (for the
 * module-loader hooks this package never loads), so depending on it would make
 * `npm install --engine-strict` fail on the Node 20.19 this package supports. Its CommonJS build
 * is copied verbatim (no re-bundling of the 3.6 MB WebAssembly-carrying file), with its licences.
 */
async function vendorAmaro(): Promise<void> {
  const from = dirname(createRequire(import.meta.url).resolve('amaro'))
  const to = join(fileURLToPath(new URL('.', import.meta.url)), 'dist', dirname(VENDORED_AMARO))
  await mkdir(to, { recursive: true })
  for (const file of ['index.js', 'internal.js', 'LICENSE']) await copyFile(join(from, file), join(to, file))
  await copyFile(join(from, '..', 'LICENSE.md'), join(to, 'LICENSE.md'))
  const { version } = JSON.parse(await readFile(join(from, '..', 'package.json'), 'utf8')) as {
    version: string
  }
  // "type": "commonjs": the copied .js files are CommonJS inside this "type": "module" package
  await writeFile(
    join(to, 'package.json'),
    `${JSON.stringify({ name: 'amaro', version, license: 'MIT', private: true, type: 'commonjs' }, null, 2)}\n`,
  )
}

export default defineConfig({ ...sharedTsupConfig, onSuccess: vendorAmaro })
