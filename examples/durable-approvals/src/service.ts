/**
 * The service: one process of a web app whose agent deploys only with a person's approval.
 *
 *   POST /turns {target}                     start a turn → { status: 'waiting', ticket } or done
 *   GET  /approvals                          what waits for a person
 *   POST /approvals/<ticket> {approve, by}   decide it, and finish the turn → { status: 'done', reply }
 *   POST /code-turns {targets}               a Code Mode turn: one program deploying to every target
 *                                            → { status: 'waiting', ticket: <run ticket>, approvals }
 *   POST /runs/<ticket> {approve, by}        decide every approval the run waits for; resume it once
 *
 * Every process on the same SQLite file (and signing key) serves every turn.
 */
import { appendFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import ToolApprovals from '@dsh/tool-approvals'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import SqliteToolStore from '@dsh/tools-store-sqlite'
import { decideRun, startCodeTurn } from './code-turn'
import { continueTurn, startTurn } from './scripted-agent'

/** The demo's key. A real service reads it from a secret store (see @dsh/tool-approvals, threat model). */
export const DEMO_SIGNING_KEY = 'demo-only-signing-key-0123456789abcdef'

/**
 * The app: store, runtime (native tools and `run_code`), approvals, Code Mode on QuickJS, the
 * `deploy` tool and `read_notes` (each body run appends a line to `deployLog`), and the policy.
 */
export async function createApp(db: string, deployLog: string): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(SqliteToolStore, { path: db })
  await ctx.plugin(ToolRuntime, { mode: 'both' })
  await ctx.plugin(ToolApprovals, { signingKey: process.env['APPROVAL_SIGNING_KEY'] ?? DEMO_SIGNING_KEY })
  await ctx.plugin(WorkerThreadCodeRuntime)
  await ctx.plugin(CodeMode)
  ctx.tools.register(
    defineTool({
      name: 'read_notes',
      description: 'Read the release notes.',
      parameters: {},
      annotations: { readOnly: true },
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      execute: () => {
        appendFileSync(deployLog, `${process.pid} read notes\n`)
        return 'v2: faster deploys'
      },
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'deploy',
      description: 'Deploy a service to an environment.',
      parameters: { target: { type: 'string', required: true } },
      // Deploys to different targets may run side by side (a release program deploys in parallel).
      isConcurrencySafe: () => true,
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      execute: ({ target }) => {
        appendFileSync(deployLog, `${process.pid} deployed ${target}\n`)
        return `deployed ${target} from process ${process.pid}`
      },
    }),
  )
  ctx.on('tools/pre-execute', async (execution, next) =>
    execution.name === 'deploy' ? ({ kind: 'ask', reason: 'deploys need a person' } as const) : next(),
  )
  return ctx
}

async function body(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = ''
  for await (const chunk of request) {
    text += chunk
    if (text.length > 64 * 1024) throw new Error('request body too large')
  }
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)
}

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(value))
}

async function route(ctx: Context, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost')
  if (request.method === 'POST' && url.pathname === '/turns') {
    const { target } = await body(request)
    if (typeof target !== 'string') return send(response, 400, { error: '`target` must be a string' })
    return send(response, 200, await startTurn(ctx, target))
  }
  if (request.method === 'POST' && url.pathname === '/code-turns') {
    const { targets } = await body(request)
    if (!Array.isArray(targets) || !targets.every((target) => typeof target === 'string'))
      return send(response, 400, { error: '`targets` must be an array of strings' })
    return send(response, 200, await startCodeTurn(ctx, targets as string[]))
  }
  const run = /^\/runs\/([^/]+)$/.exec(url.pathname)
  if (request.method === 'POST' && run !== null) {
    const { approve, by } = await body(request)
    if (typeof approve !== 'boolean' || typeof by !== 'string')
      return send(response, 400, { error: '`approve` (boolean) and `by` (string) are required' })
    return send(response, 200, await decideRun(ctx, decodeURIComponent(run[1]!), { approve, by }))
  }
  if (request.method === 'GET' && url.pathname === '/approvals')
    return send(response, 200, await ctx.approvals.list({ status: 'pending' }))
  const decision = /^\/approvals\/([^/]+)$/.exec(url.pathname)
  if (request.method === 'POST' && decision !== null) {
    const ticket = decodeURIComponent(decision[1]!)
    const { approve, by, note } = await body(request)
    if (typeof approve !== 'boolean' || typeof by !== 'string')
      return send(response, 400, { error: '`approve` (boolean) and `by` (string) are required' })
    await ctx.approvals.decide(ticket, { approve, by, ...(typeof note === 'string' ? { note } : {}) })
    return send(response, 200, await continueTurn(ctx, ticket))
  }
  send(response, 404, { error: 'not found' })
}

/** Serve the app on `port` (0: any free port) of 127.0.0.1; resolves with the port. */
export async function serve(ctx: Context, port: number): Promise<number> {
  const server = createServer((request, response) => {
    route(ctx, request, response).catch((error: unknown) =>
      send(response, 500, { error: error instanceof Error ? error.message : String(error) }),
    )
  })
  ctx.effect(() => () => void server.close(), 'http server')
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address()
  return typeof address === 'object' && address !== null ? address.port : port
}
