/**
 * The demo, end to end: a turn's call waits for approval in process A; A is killed (a deploy, a
 * crash); process B starts on the same SQLite file; a person approves through B's HTTP API; the
 * turn completes in B; asking again runs nothing twice.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url))

/** How the demo starts each service process. */
export interface DemoOptions {
  /**
   * The Node arguments that run `serve.ts` (the database and deploy log paths follow). Default:
   * the source through tsx, workspace packages resolved through the `@dsh/source` condition.
   */
  readonly service?: readonly string[]
}

interface ServiceProcess {
  readonly child: ChildProcess
  readonly url: string
}

async function startService(
  service: readonly string[],
  db: string,
  deployLog: string,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...service, db, deployLog], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const exited = once(child, 'exit').then(() => {
    throw new Error('the service process exited before it listened')
  })
  const listening = new Promise<string>((resolve) => {
    lines.on('line', (line) => {
      const port = /^listening (\d+)$/.exec(line)?.[1]
      if (port !== undefined) resolve(`http://127.0.0.1:${port}`)
    })
  })
  return { child, url: await Promise.race([listening, exited]) }
}

async function kill(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return
  const exit = once(service.child, 'exit')
  service.child.kill('SIGKILL')
  await exit
}

async function http(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return response.json()
}

/** Run the demo, reporting each step through `log`. */
export async function runDemo(log: (line: string) => void, options: DemoOptions = {}): Promise<void> {
  // Sources, not builds: the child resolves workspace packages through the `@dsh/source` condition.
  const service = options.service ?? ['--conditions=@dsh/source', '--import', 'tsx', SERVE]
  const dir = mkdtempSync(join(tmpdir(), 'dsh-durable-approvals-'))
  const db = join(dir, 'tools.db')
  const deployLog = join(dir, 'deploys.log')
  const services: ServiceProcess[] = []
  try {
    const first = await startService(service, db, deployLog)
    services.push(first)
    log(`process A (pid ${first.child.pid}) serves ${first.url}`)
    const turn = (await http('POST', `${first.url}/turns`, { target: 'prod' })) as {
      status: string
      ticket?: string
    }
    log(`agent turn: ${JSON.stringify(turn)}`)
    if (turn.ticket === undefined) throw new Error('the turn did not wait for approval')

    await kill(first)
    log(`process A killed (SIGKILL) while the call waits for approval`)

    const second = await startService(service, db, deployLog)
    services.push(second)
    log(`process B (pid ${second.child.pid}) serves ${second.url} on the same SQLite file`)
    const pending = (await http('GET', `${second.url}/approvals`)) as {
      ticket: string
      tool: string
      arguments: unknown
      reason?: string
    }[]
    for (const approval of pending)
      log(
        `waiting for a person: ${approval.tool}(${JSON.stringify(approval.arguments)}) — ${approval.reason} [${approval.ticket}]`,
      )
    const done = await http('POST', `${second.url}/approvals/${encodeURIComponent(turn.ticket)}`, {
      approve: true,
      by: 'ana',
    })
    log(`ana approves through process B → ${JSON.stringify(done)}`)
    const again = await http('POST', `${second.url}/approvals/${encodeURIComponent(turn.ticket)}`, {
      approve: true,
      by: 'ana',
    })
    log(`approving again → ${JSON.stringify(again)}`)
    const deploys = existsSync(deployLog) ? readFileSync(deployLog, 'utf8').split('\n').filter(Boolean) : []
    log(`deploy body runs: ${deploys.length}`)

    // A Code Mode turn: one program reads the notes and deploys to two targets at once.
    const codeTurn = (await http('POST', `${second.url}/code-turns`, { targets: ['eu', 'us'] })) as {
      status: string
      ticket?: string
      approvals?: { tool: string }[]
    }
    log(
      `code turn: ${codeTurn.status}, run ticket ${codeTurn.ticket?.slice(0, 4)}…, waiting for ${codeTurn.approvals?.map((a) => a.tool).join(' + ')}`,
    )
    if (codeTurn.ticket === undefined) throw new Error('the code turn did not wait for approval')
    await kill(second)
    log('process B killed (SIGKILL) while the program waits for approval')
    const third = await startService(service, db, deployLog)
    services.push(third)
    log(`process C (pid ${third.child.pid}) serves ${third.url}`)
    const released = (await http('POST', `${third.url}/runs/${encodeURIComponent(codeTurn.ticket)}`, {
      approve: true,
      by: 'ana',
    })) as { status: string; reply?: string }
    log(`ana approves the run through process C → ${released.status}: ${released.reply}`)
    const lines = readFileSync(deployLog, 'utf8').split('\n').filter(Boolean)
    log(
      `body runs in all: read notes ${lines.filter((line) => line.endsWith('read notes')).length}, deploy eu ${lines.filter((line) => line.endsWith('deployed eu')).length}, deploy us ${lines.filter((line) => line.endsWith('deployed us')).length}`,
    )
  } finally {
    for (const service of services) await kill(service)
    rmSync(dir, { recursive: true, force: true })
  }
}
