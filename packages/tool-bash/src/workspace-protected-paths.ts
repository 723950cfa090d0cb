import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
// Not in the library's barrel, but the list its own cwd protection uses: importing it keeps the
// two in step when the library adds a name.
import {
  DANGEROUS_FILES,
  getDangerousDirectories,
} from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js'

/**
 * The paths inside a writable root that the sandbox keeps read-only: files that something on
 * the host later runs or obeys — shell rc files, git hooks and git config, editor and agent
 * settings. A command that could write them would get code run outside the sandbox the next
 * time the user (or the harness) runs git or opens a shell there.
 *
 * The library applies exactly these rules, but only to the host process's current directory,
 * which is rarely the workspace; this applies them to each writable root. As in the library,
 * `.git/hooks` and `.git/config` are protected only when `.git` already is a directory (so
 * `git init` still works), and a `.git` file (a worktree or submodule pointer) is protected whole.
 */
export async function workspaceProtectedPaths(root: string): Promise<string[]> {
  const paths = [...DANGEROUS_FILES, ...getDangerousDirectories()].map((name) => join(root, name))
  const dotGit = join(root, '.git')
  const stat = await lstat(dotGit).catch(() => undefined)
  if (stat?.isDirectory()) paths.push(join(dotGit, 'hooks'), join(dotGit, 'config'))
  else if (stat !== undefined) paths.push(dotGit)
  return paths
}
