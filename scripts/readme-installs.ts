/**
 * The install commands the READMEs give: every `npm install "$DSH"/dist-tarballs/…` line of a
 * ```sh block, which `pnpm test:pack` runs verbatim. Pure: text in, lines and names out.
 */

/** The `npm install "$DSH"…` lines of the sh blocks of `markdown`, in order. */
export function installLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)
  return blocks.flatMap((block) => block.split('\n')).filter((line) => line.startsWith('npm install "$DSH"'))
}

/** The @dsh packages whose tarballs `line` installs, sorted (`dsh-tool-fs-0.1.0.tgz` → `@dsh/tool-fs`). */
export function tarballPackages(line: string): string[] {
  const files = line.match(/dsh-[a-z-]+?(?=-\d+\.\d+\.\d+[^ ]*\.tgz)/g) ?? []
  return [...new Set(files)].map((file) => `@dsh/${file.slice('dsh-'.length)}`).sort()
}
