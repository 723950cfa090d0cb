import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as bash from '../src/index'
import { pathWithoutRipgrep } from './helpers'

// Real bash in real bubblewrap, real git on the host afterwards: nothing a sandboxed command
// writes under a writable root makes a host tool run code later. Every case runs with ripgrep
// on PATH and without it (the protection depends on no optional program).

let workspace: string
let outside: string
let marker: string

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-protect-')))
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-protect-out-')))
  marker = join(outside, 'planted-command-ran')
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

async function tool(config: bash.BashConfigInput = {}) {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(bash, { workdir: workspace, killGraceMs: 200, sandbox: { fallback: 'refuse' }, ...config })
  let calls = 0
  return (command: string): Promise<ToolExecutionResult> =>
    ctx.tools.execute({
      callId: `protect-${++calls}`,
      name: 'bash',
      arguments: { command, description: 'protected entries' },
      signal: new AbortController().signal,
    })
}

/** Run the user's `git status` on the host, outside any sandbox, with no global config. */
function hostGitStatus(cwd: string): void {
  spawnSync('git', ['status'], {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: outside, GIT_CONFIG_NOSYSTEM: '1' },
  })
}

/** A git config that runs the planted command (creating the marker) on the next `git status`. */
const armedConfig = () =>
  `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = \\"touch ${marker}; false\\"\\n`

const codeOf = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : undefined)
const messageOf = (result: ToolExecutionResult) => (result.isError ? result.error.message : '')
const refusedAside = (dir: string, name: string) =>
  readdirSync(dir).some((entry) => entry.startsWith(`${name}.dsh-refused-`))

const ripgrepModes = [
  ['ripgrep on PATH', false],
  ['no ripgrep on PATH', true],
] as const

describe.each(ripgrepModes)('protected entries under a writable root (%s)', (_mode, hideRipgrep) => {
  let savedPath: string | undefined
  let shim: string | undefined
  beforeAll(() => {
    if (!hideRipgrep) return
    savedPath = process.env.PATH
    const without = pathWithoutRipgrep()
    shim = without.dir
    process.env.PATH = without.path
    expect(spawnSync('rg', ['--version']).error).toBeDefined()
  })
  afterAll(() => {
    if (!hideRipgrep) return
    process.env.PATH = savedPath
    rmSync(shim!, { recursive: true, force: true })
  })

  it('a nested repository made in one call and armed in the next is moved aside; host git runs nothing', async () => {
    const run = await tool()
    const first = await run('git init -q sub && echo made')
    expect(codeOf(first)).toBe('BASH_PROTECTION_VIOLATED')
    expect(messageOf(first)).toContain(join(workspace, 'sub', '.git'))
    expect(existsSync(join(workspace, 'sub', '.git'))).toBe(false)
    expect(refusedAside(join(workspace, 'sub'), '.git')).toBe(true)

    const second = await run(
      `mkdir -p sub/.git/objects sub/.git/refs && echo 'ref: refs/heads/main' > sub/.git/HEAD && printf "${armedConfig()}" > sub/.git/config`,
    )
    expect(codeOf(second)).toBe('BASH_PROTECTION_VIOLATED')
    hostGitStatus(join(workspace, 'sub'))
    hostGitStatus(workspace)
    expect(existsSync(marker)).toBe(false)
  })

  it('an existing repository, nested ones included, is read-only: its config and hooks cannot be armed', async () => {
    for (const dir of [workspace, join(workspace, 'nested', 'repo')]) {
      mkdirSync(dir, { recursive: true })
      spawnSync('git', ['init', '-q', dir])
    }
    const configs = [join(workspace, '.git', 'config'), join(workspace, 'nested', 'repo', '.git', 'config')]
    const original = configs.map((path) => readFileSync(path, 'utf8'))
    const run = await tool()
    const result = await run(
      [
        `printf "${armedConfig()}" >> .git/config`,
        `printf "${armedConfig()}" >> nested/repo/.git/config`,
        'echo evil > nested/repo/.git/hooks/pre-commit',
        'echo "gitdir: /tmp" > .git/commondir',
        'mv nested/repo/.git nested/repo/.git-old',
      ]
        .map((attempt) => `(${attempt}) 2>/dev/null`)
        .join('; ')
        .concat('; echo fine > fine.txt'),
    )
    expect(result.isError).toBe(false)
    expect(readFileSync(join(workspace, 'fine.txt'), 'utf8')).toBe('fine\n')
    expect(configs.map((path) => readFileSync(path, 'utf8'))).toEqual(original)
    expect(existsSync(join(workspace, 'nested', 'repo', '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(existsSync(join(workspace, '.git', 'commondir'))).toBe(false)
    hostGitStatus(workspace)
    hostGitStatus(join(workspace, 'nested', 'repo'))
    expect(existsSync(marker)).toBe(false)
  })

  it('in a workspace that is not a repository, a gitdir pointer to a planted git directory runs nothing on the host', async () => {
    const run = await tool()
    const plant = [
      'mkdir -p planted/objects planted/refs sub',
      "echo 'ref: refs/heads/main' > planted/HEAD",
      `printf "${armedConfig()}" > planted/config`,
      '(echo "gitdir: $PWD/planted" > .git) 2>/dev/null',
      '(git init -q . ) 2>/dev/null',
      'echo "gitdir: $PWD/planted" > sub/.git',
      'mkdir -p viaLink && ln -s ../planted viaLink/.git',
    ].join('; ')
    const result = await run(plant)
    expect(codeOf(result)).toBe('BASH_PROTECTION_VIOLATED')
    // The top-level .git is held during the call: the write failed there.
    expect(existsSync(join(workspace, '.git'))).toBe(false)
    expect(existsSync(join(workspace, 'sub', '.git'))).toBe(false)
    expect(existsSync(join(workspace, 'viaLink', '.git'))).toBe(false)
    expect(existsSync(join(workspace, 'planted', 'HEAD'))).toBe(false)
    for (const dir of ['', 'sub', 'viaLink', 'planted']) hostGitStatus(join(workspace, dir))
    expect(existsSync(marker)).toBe(false)
  })

  it('host-read config files (.envrc, .npmrc, .yarnrc.yml, .gitattributes, …) cannot be created or changed anywhere', async () => {
    writeFileSync(join(workspace, '.envrc'), 'export SAFE=1\n')
    mkdirSync(join(workspace, 'old'))
    writeFileSync(join(workspace, 'old', '.npmrc'), 'safe=1\n')
    const names = ['.npmrc', '.yarnrc.yml', '.gitattributes', '.tool-versions', '.env']
    const run = await tool()
    const result = await run(
      [
        '(echo "touch evil" >> .envrc) 2>/dev/null',
        '(echo "script-shell=/tmp/evil" >> old/.npmrc) 2>/dev/null',
        'mkdir -p pkg/.vscode && echo "{}" > pkg/.vscode/tasks.json',
        ...names.map((name) => `echo evil > ${name}; echo evil > pkg/${name}`),
        'echo fine > fine.txt',
      ].join('; '),
    )
    expect(codeOf(result)).toBe('BASH_PROTECTION_VIOLATED')
    expect(readFileSync(join(workspace, '.envrc'), 'utf8')).toBe('export SAFE=1\n')
    expect(readFileSync(join(workspace, 'old', '.npmrc'), 'utf8')).toBe('safe=1\n')
    for (const name of names) {
      for (const dir of [workspace, join(workspace, 'pkg')]) {
        expect(existsSync(join(dir, name)), `${dir}/${name}`).toBe(false)
        expect(refusedAside(dir, name), `${dir}/${name} moved aside`).toBe(true)
        expect(messageOf(result)).toContain(join(dir, name))
      }
    }
    expect(existsSync(join(workspace, 'pkg', '.vscode'))).toBe(false)
    expect(readFileSync(join(workspace, 'fine.txt'), 'utf8')).toBe('fine\n')
  })

  it('ordinary work next to a repository is no violation; git can read it', async () => {
    spawnSync('git', ['init', '-q', join(workspace, 'a')])
    const run = await tool()
    const result = await run(
      'mkdir -p a/src && echo x > a/src/x.txt && git -C a status --short; (mv a b) 2>&1',
    )
    expect(result.isError).toBe(false)
    const { stdout, stderr } = result.isError
      ? { stdout: '', stderr: '' }
      : (result.value as { stdout: string; stderr: string })
    expect(stdout + stderr).toContain('?? src/')
    // The directories holding a protected entry are pinned: the repository stays where it was.
    expect(statSync(join(workspace, 'a', '.git')).isDirectory()).toBe(true)
  })

  it('protection that cannot be computed refuses the call: nothing runs', async () => {
    for (let i = 0; i < 40; i++) writeFileSync(join(workspace, `file-${i}`), '')
    const run = await tool({ sandbox: { fallback: 'refuse', maxScanEntries: 20 } })
    const result = await run(`touch ${join(workspace, 'ran')}`)
    expect(codeOf(result)).toBe('BASH_PROTECTION_UNAVAILABLE')
    expect(messageOf(result)).toContain('maxScanEntries')
    expect(existsSync(join(workspace, 'ran'))).toBe(false)
  })
})
