/**
 * The fixed usage notes that head the SDK section, per language. The TypeScript notes are the
 * seed's "Code Mode SDK 说明" block, word for word; the Python notes say the same in Python terms.
 */

/** Usage notes preceding the TypeScript SDK block (ends with `The available tools:`). */
export const TYPESCRIPT_USAGE_NOTES = `## Writing code for run_code

\`run_code\` takes two required arguments: \`code\` — the body of an async TypeScript function (erasable syntax only — no \`enum\` or namespaces; type annotations are advisory, the code runs type-stripped) — and \`description\`, a short summary of what the program does. Inside the program:

- Call tools as \`await tools.name(args)\` — quoted access for exotic names: \`tools["my-tool"](args)\`. Every call resolves to the tool's typed canonical JSON value. Tool arguments must be lossless JSON.
- A FAILED tool call rejects with \`ToolCallError\`, whose \`toolName\` identifies the failed tool and whose \`message\` is human-readable — \`try/catch\` it to handle and continue.
- Independent read-only calls MAY overlap under \`Promise.all\` (safe calls run concurrently; mutating calls run alone, in submission order). Sequence dependent work with \`await\`.
- Emit results with \`return\` and/or \`console.log(...)\`. ONLY what you print or return comes back to you — intermediate tool results never enter the conversation, so extract just what you need.

The available tools:`

/** Usage notes preceding the Python SDK block (ends with `The available tools:`). */
export const PYTHON_USAGE_NOTES = `## Writing code for run_code

\`run_code\` takes two required arguments: \`code\` — the body of an async Python function (top-level \`await\` works; type hints are advisory) — and \`description\`, a short summary of what the program does. Inside the program:

- Call tools as \`await tools.name(args)\` — subscript access for exotic names: \`await tools["my-tool"](args)\`. Every call resolves to the tool's typed canonical JSON value. Tool arguments must be lossless JSON (no NaN or infinities).
- A FAILED tool call raises \`ToolCallError\`, whose \`tool_name\` identifies the failed tool and whose \`message\` is human-readable — \`try/except\` it to handle and continue.
- Independent read-only calls MAY overlap under \`asyncio.gather(...)\` (safe calls run concurrently; mutating calls run alone, in submission order). Sequence dependent work with \`await\`.
- Emit results with a top-level \`return\` and/or \`print(...)\`. ONLY what you print or return comes back to you — intermediate tool results never enter the conversation, so extract just what you need.

The available tools:`
