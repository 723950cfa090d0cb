/**
 * The install commands the READMEs give: every `npm install "$DSH"/dist-tarballs/…` line of a
 * ```sh block, which `pnpm test:pack` runs verbatim. Pure: text in, lines and names out.
 */

/**
 * A block's `npm pkg set allowScripts.<name>=true --json` lines: recent npm runs a dependency's
 * install script (a native addon's build) only when the project allows it, so a README that
 * needs one says so in the same block, before its install line.
 */
const ALLOW_SCRIPTS = /^npm pkg set allowScripts\.[\w.@/-]+=true --json$/

/**
 * The `npm install "$DSH"…` lines of the sh blocks of `markdown`, in order, each preceded
 * (joined with `&&`) by its block's allowScripts lines.
 */
export function installLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.split('\n'))
  return blocks.flatMap((lines) => {
    const allow = lines.filter((line) => ALLOW_SCRIPTS.test(line))
    return lines
      .filter((line) => line.startsWith('npm install "$DSH"'))
      .map((line) => [...allow, line].join(' && '))
  })
}

/** The @dsh packages whose tarballs `line` installs, sorted (`dsh-tool-fs-0.1.0.tgz` → `@dsh/tool-fs`). */
export function tarballPackages(line: string): string[] {
  const files = line.match(/dsh-[a-z-]+?(?=-\d+\.\d+\.\d+[^ ]*\.tgz)/g) ?? []
  return [...new Set(files)].map((file) => `@dsh/${file.slice('dsh-'.length)}`).sort()
}
