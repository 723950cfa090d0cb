import { describe, expect, it } from 'vitest'
import { runBridge } from '../src/bridge'

describe('mcp-bridge example', () => {
  it('runs server-filesystem through the pipeline with policy, in native and Code Mode, and serves dsh tools', async () => {
    const lines: string[] = []
    await runBridge((line) => lines.push(line))
    const text = lines.join('\n')
    expect(text).toMatch(/registered \d+ tools: .*fs__read_text_file/)
    // Policy on MCP tools, native: redaction, guard, approval rules; the server's own confinement.
    expect(text).toContain('api_key=[REDACTED]')
    expect(text).toMatch(/fs__read_text_file\(.*\.env"\}\) → ERROR .*off limits/)
    expect(text).toMatch(/fs__write_file\(.*todo\.md.*\) → .*Successfully wrote/)
    expect(text).toMatch(/fs__write_file\(.*run\.sh.*\) → ERROR .*no rule allows it/)
    expect(text).toMatch(/\/etc\/hostname"\}\) → ERROR .*server "fs" failed: Access denied/)
    // Code Mode: the same policy per sub-call.
    expect(text).toContain('SDK section mentions fs__read_text_file: true')
    expect(text).toMatch(/sub-call fs__read_text_file → ERROR .*off limits/)
    expect(text).toMatch(/run_code → .*ship the MCP bridge/)
    // Served over MCP.
    expect(text).toMatch(/served at http:\/\/127\.0\.0\.1:\d+\/mcp: read, write, edit, glob, grep/)
    expect(text).toContain('ship the MCP bridge')
  }, 120_000)
})
