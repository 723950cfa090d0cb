/**
 * The task the demo gives its agent, and the two scripts a model might answer it with: one
 * for native function calling (several turns, batches of calls) and one for Code Mode (one
 * `run_code` program that does the same through `tools.*`). Paths are relative: the fs tools
 * resolve them against their first root and `bash` runs in the workspace.
 */
import type { AssistantTurn, ModelRequest } from './model'
import { type ScriptStep, toolResultText } from './scripted-model'

/** What the user asks. */
export const TASK =
  'The tests of this little pagination library fail. Find the bug, fix it with the smallest change, and make sure the test suite passes.'

/** The loop's own instructions, placed before the registry's prompt sections. */
export const INSTRUCTIONS =
  'You are a careful coding agent working in a project directory. Use the tools to inspect, change and test the code. Paths are relative to the project root.'

const TEST_COMMAND = 'node --test --test-reporter=spec'

function passed(output: string): boolean {
  return /\bfail 0\b/.test(output) && !/\[exit code: [1-9]/.test(output)
}

/** The buggy line as the grep result showed it (falls back to the known text). */
function buggyLine(request: ModelRequest, grepCallId: string): string {
  const text = toolResultText(request, grepCallId)
  const line = text.split('\n').find((candidate) => candidate.includes('pageSize - 1'))
  const match = line?.match(/const end = .*$/)
  return match ? match[0].trim() : 'const end = start + pageSize - 1'
}

/** The `read_result` handle in a cut result's elision marker, and where the kept head stops. */
export function elision(text: string): { handle: string; headChars: number } | undefined {
  const handle = text.match(/read_result handle=(res_[A-Za-z0-9_-]+)/)?.[1]
  const headChars = text.indexOf('…[elided ')
  return handle === undefined || headChars < 0 ? undefined : { handle, headChars }
}

/**
 * The native-mode script: find the deferred file finder with `tool_search`, explore, page the
 * cut test output with `read_result`, locate, fix and verify, try to publish, report.
 */
export function nativeScript(): ScriptStep[] {
  return [
    {
      text: 'I have no tool to list files yet; let me search the deferred tools for one.',
      toolCalls: [
        { id: 's1', name: 'tool_search', arguments: { query: 'find files matching a glob pattern' } },
      ],
    },
    {
      text: 'Found `glob`. Let me look at the project and run its tests first.',
      toolCalls: [
        { id: 'n1', name: 'glob', arguments: { pattern: '**/*.js' } },
        { id: 'n2', name: 'read', arguments: { file_path: 'package.json' } },
        { id: 'n3', name: 'read', arguments: { file_path: '.env' } },
        { id: 'n4', name: 'bash', arguments: { command: TEST_COMMAND, description: 'Run the test suite' } },
      ],
    },
    (request: ModelRequest): AssistantTurn => {
      const cut = elision(toolResultText(request, 'n4'))
      if (cut === undefined) throw new Error('scripted model: expected the test output of n4 to be cut')
      return {
        text: 'The test output was cut to fit the result budget; paging the rest of it.',
        toolCalls: [
          { id: 'p1', name: 'read_result', arguments: { handle: cut.handle, offset: cut.headChars } },
        ],
      }
    },
    {
      text: 'Two pagination tests fail with pages one item short. Let me find where pages are sliced.',
      toolCalls: [
        { id: 'n5', name: 'grep', arguments: { pattern: 'slice\\(|const end', path: 'src' } },
        { id: 'n6', name: 'read', arguments: { file_path: 'src/paginate.js' } },
        { id: 'n7', name: 'read', arguments: { file_path: 'test/paginate.test.js', limit: 12 } },
      ],
    },
    (request: ModelRequest): AssistantTurn => {
      const line = buggyLine(request, 'n5')
      return {
        text: '`slice` excludes its end index already, so `- 1` drops the last item of every page. Fixing it and re-running the tests.',
        toolCalls: [
          {
            id: 'n8',
            name: 'edit',
            arguments: {
              file_path: 'src/paginate.js',
              old_string: line,
              new_string: line.replace(/\s*-\s*1$/, ''),
            },
          },
          {
            id: 'n9',
            name: 'bash',
            arguments: { command: TEST_COMMAND, description: 'Run the test suite again' },
          },
        ],
      }
    },
    (request: ModelRequest): AssistantTurn =>
      passed(toolResultText(request, 'n9'))
        ? {
            text: 'All tests pass. I will publish the fixed version.',
            toolCalls: [
              {
                id: 'n10',
                name: 'bash',
                arguments: { command: 'npm publish', description: 'Publish the fix' },
              },
            ],
          }
        : { text: 'The tests still fail; I could not fix the bug.', toolCalls: [] },
    (request: ModelRequest): AssistantTurn => ({
      text: [
        'Fixed the off-by-one in `src/paginate.js`: `slice(start, end)` already excludes `end`, so `end` is `start + pageSize`.',
        'The whole suite passes now.',
        toolResultText(request, 'n10').startsWith('Error:')
          ? 'Publishing was refused by policy; that is left to a human.'
          : '',
      ]
        .filter(Boolean)
        .join(' '),
      toolCalls: [],
    }),
  ]
}

/** The program the Code Mode script sends: the same task as one `run_code` call. */
export const CODE_MODE_PROGRAM = `// 1. Reproduce: run the tests and count the failures.
const before = await tools.bash({ command: '${TEST_COMMAND}', description: 'Run the test suite' })
const failing = Number(before.stdout.match(/fail (\\d+)/)?.[1] ?? 0)
console.log(\`before: exit \${before.exitCode}, \${failing} failing\`)

// 2. Look around. Independent read-only calls overlap under Promise.all.
const [files, hits, source] = await Promise.all([
  tools.glob({ pattern: '**/*.js' }),
  tools.grep({ pattern: 'slice\\\\(|const end', path: 'src' }),
  tools.read({ file_path: 'src/paginate.js' }),
])
console.log(\`\${files.paths.length} js files, \${hits.total} matches\`)
try {
  await tools.read({ file_path: '.env' })
} catch (error) {
  console.log(\`not reading .env: \${error.message}\`)
}

// 3. Fix: slice() excludes its end index, so "- 1" drops an item from every page.
const line = source.lines.find((entry) => entry.text.includes('pageSize - 1'))
if (!line) throw new Error('the suspicious line is gone')
console.log(\`suspect: src/paginate.js:\${line.number}\`)
const buggy = line.text.slice(line.text.indexOf('const end'))
await tools.edit({ file_path: 'src/paginate.js', old_string: buggy, new_string: buggy.replace(' - 1', '') })

// 4. Verify.
const after = await tools.bash({ command: '${TEST_COMMAND}', description: 'Run the test suite again' })
return { fixed: after.exitCode === 0, failingBefore: failing, change: [buggy, buggy.replace(' - 1', '')] }`

/** The same program in Python, for Code Mode on `@dsh/code-runtime-pyodide` (`--lang python`). */
export const CODE_MODE_PYTHON_PROGRAM = String.raw`# 1. Reproduce: run the tests and count the failures.
import re
before = await tools.bash({"command": "${TEST_COMMAND}", "description": "Run the test suite"})
match = re.search(r"fail (\d+)", before["stdout"])
failing = int(match.group(1)) if match else 0
print(f"before: exit {before['exitCode']}, {failing} failing")

# 2. Look around. Independent read-only calls overlap under asyncio.gather.
files, hits, source = await asyncio.gather(
    tools.glob({"pattern": "**/*.js"}),
    tools.grep({"pattern": r"slice\(|const end", "path": "src"}),
    tools.read({"file_path": "src/paginate.js"}),
)
print(f"{len(files['paths'])} js files, {hits['total']} matches")
try:
    await tools.read({"file_path": ".env"})
except ToolCallError as error:
    print(f"not reading .env: {error.message}")

# 3. Fix: slice() excludes its end index, so "- 1" drops an item from every page.
line = next((entry for entry in source["lines"] if "pageSize - 1" in entry["text"]), None)
if line is None:
    raise RuntimeError("the suspicious line is gone")
print(f"suspect: src/paginate.js:{line['number']}")
buggy = line["text"][line["text"].index("const end"):]
fixed = buggy.replace(" - 1", "")
await tools.edit({"file_path": "src/paginate.js", "old_string": buggy, "new_string": fixed})

# 4. Verify.
after = await tools.bash({"command": "${TEST_COMMAND}", "description": "Run the test suite again"})
return {"fixed": after["exitCode"] == 0, "failingBefore": failing, "change": [buggy, fixed]}`

/** The language of the Code Mode program (and of the runtime that runs it). */
export type CodeLanguage = 'typescript' | 'python'

/** The Code Mode script: one program in `language`, then a summary of what it returned. */
export function codeModeScript(language: CodeLanguage = 'typescript'): ScriptStep[] {
  return [
    {
      text: 'I will reproduce, locate, fix and verify in one program.',
      toolCalls: [
        {
          id: 'c1',
          name: 'run_code',
          arguments: {
            description: 'Reproduce, locate and fix the pagination bug, then re-run the tests',
            code: language === 'python' ? CODE_MODE_PYTHON_PROGRAM : CODE_MODE_PROGRAM,
          },
        },
      ],
    },
    (request: ModelRequest): AssistantTurn => {
      const output = toolResultText(request, 'c1')
      const fixed = /"fixed": true/.test(output)
      return {
        text: fixed
          ? 'Fixed the off-by-one in `src/paginate.js` (`end` is `start + pageSize`); the whole suite passes now.'
          : `The program did not fix the bug:\n${output}`,
        toolCalls: [],
      }
    },
  ]
}
