/**
 * Names of entries that a tool on the host reads and acts on later — runs a command it names,
 * loads code from it, or exports its variables into the user's shell — wherever they appear
 * under a writable root. A sandboxed command that could create or change one would get code run
 * OUTSIDE the sandbox the next time the user runs git, opens a shell, installs packages or
 * opens the folder in an editor. Each is protected whole (a directory with all it holds).
 *
 * The README's "Protected entries" table gives the reason for each; the list is this package's
 * own (no optional binary or library scan decides it).
 */
export const PROTECTED_NAMES: readonly string[] = [
  // git: a repository's config (core.fsmonitor, core.hooksPath, filter drivers), its hooks and
  // a `gitdir:` pointer; submodule commands; attribute-selected filter/diff/merge drivers.
  '.git',
  '.gitmodules',
  '.gitattributes',
  '.gitconfig',
  '.lfsconfig',
  // git hook managers: their config names the commands the next host `git commit` runs.
  '.husky',
  '.githooks',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook-local.yml',
  // direnv (and mise/dotenv loaders): evaluated or exported into the user's shell on `cd`.
  '.envrc',
  '.env',
  // version managers: mise/asdf read these on `cd` and on every shimmed command.
  '.tool-versions',
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  '.mise',
  '.config',
  // package managers: npm/pnpm rc (script-shell, node-options, git), yarn's yarnPath and
  // plugins, pnpm's hooks file and workspace settings.
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.yarn',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  'pnpm-workspace.yaml',
  // editors and dev containers: tasks, language servers, exrc, devcontainer lifecycle commands.
  '.vscode',
  '.idea',
  '.zed',
  '.helix',
  '.exrc',
  '.nvimrc',
  '.nvim.lua',
  '.devcontainer',
  '.devcontainer.json',
  // shell start-up files (a workspace that is a home directory).
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  // other tools' config that names commands: ripgrep's --pre, agents' MCP servers and hooks.
  '.ripgreprc',
  '.mcp.json',
  '.claude',
  '.cursor',
  '.gemini',
]

const NAMES = new Set(PROTECTED_NAMES)

/** Whether an entry named `name` is protected wherever it lies under a writable root. */
export function isProtectedName(name: string): boolean {
  return NAMES.has(name)
}

/**
 * Whether a directory with these entry names is a git directory (what git accepts as one: a
 * `HEAD`, an `objects` and a `refs`). Git discovers such a directory as a bare repository when
 * it is the current directory or an ancestor of it, and a `gitdir:` pointer may name it: it is
 * protected like `.git`, whatever its name.
 */
export function looksLikeGitDir(names: ReadonlySet<string>): boolean {
  return names.has('HEAD') && names.has('objects') && names.has('refs')
}
