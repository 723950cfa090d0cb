// The pure parts of `pnpm test:pack`: which README lines it runs, and which npm warnings fail it.
import { describe, expect, it } from 'vitest'
import { badEnginePackages, engineExempt, npmWarnings } from '../../../scripts/npm-warnings'
import { installLines, tarballPackages } from '../../../scripts/readme-installs'

const EBADENGINE = (name: string) => `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: '${name}@1.2.1',
npm warn EBADENGINE   required: { node: '>=22' },
npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }
npm warn EBADENGINE }
`

describe('npmWarnings', () => {
  it('every npm warn line fails the run, whatever its case', () => {
    const stderr =
      'npm warn deprecated glob@7.2.3: old\nnpm WARN ERESOLVE overriding peer\nadded 3 packages\n'
    expect(npmWarnings(stderr, {})).toEqual([
      'npm warn deprecated glob@7.2.3: old',
      'npm WARN ERESOLVE overriding peer',
    ])
    expect(npmWarnings('added 3 packages\n', {})).toEqual([])
  })

  it('an EBADENGINE block is tolerated only when every package it names is allowlisted', () => {
    expect(badEnginePackages(EBADENGINE('@scope/pkg') + EBADENGINE('amaro'))).toEqual(['@scope/pkg', 'amaro'])
    expect(npmWarnings(EBADENGINE('@scope/pkg'), { '@scope/pkg': 'reason' })).toEqual([])
    expect(
      npmWarnings(EBADENGINE('@scope/pkg') + EBADENGINE('amaro'), { '@scope/pkg': 'reason' }),
    ).toHaveLength(10)
  })

  it('only installs that pull an allowlisted dependency run without --engine-strict', () => {
    const deps: Record<string, string[]> = {
      '@dsh/tool-bash': ['@anthropic-ai/sandbox-runtime'],
      '@dsh/tools-core': [],
    }
    const exempt = { '@anthropic-ai/sandbox-runtime': 'reason' }
    expect(engineExempt(['@dsh/tools-core', '@dsh/tool-bash'], exempt, (name) => deps[name] ?? [])).toEqual([
      '@anthropic-ai/sandbox-runtime',
    ])
    expect(engineExempt(['@dsh/tools-core'], exempt, (name) => deps[name] ?? [])).toEqual([])
  })
})

describe('README install lines', () => {
  it('finds the npm install "$DSH" lines of sh blocks only, and the packages each installs', () => {
    const readme = [
      '```sh',
      'npm install "$DSH"/dist-tarballs/dsh-tools-core-0.1.0.tgz "$DSH"/dist-tarballs/dsh-code-runtime-worker-thread-0.1.0.tgz x',
      'sudo apt-get install bubblewrap',
      '```',
      '```ts',
      'npm install "$DSH"/dist-tarballs/dsh-tool-fs-0.1.0.tgz',
      '```',
    ].join('\n')
    const lines = installLines(readme)
    expect(lines).toHaveLength(1)
    expect(tarballPackages(lines[0]!)).toEqual(['@dsh/code-runtime-worker-thread', '@dsh/tools-core'])
  })

  it("runs a block's allowScripts approvals before its install line", () => {
    const readme = [
      '```sh',
      'npm pkg set allowScripts.better-sqlite3=true --json',
      'npm install "$DSH"/dist-tarballs/dsh-tools-store-sqlite-0.1.0.tgz',
      '```',
    ].join('\n')
    expect(installLines(readme)).toEqual([
      'npm pkg set allowScripts.better-sqlite3=true --json && npm install "$DSH"/dist-tarballs/dsh-tools-store-sqlite-0.1.0.tgz',
    ])
  })
})
