import { describe, expect, it } from 'vitest'
import { runBridge } from '../src/bridge'

describe('mcp-bridge example', () => {
  it('runs server-filesystem through the pipeline with policy, in native and Code Mode, and serves dsh tools', async () => {
    const lines: string[] = []
    await runBridge((line) => lines.push(line))
    const text = lines.join('\n')
    // Full JSON Schema in the gate: every tool registers as listed, with no warning (the README says so).
    const registered = /registered \d+ tools: (.*)/.exec(text)?.[1]?.split(', ') ?? []
    expect(registered).toEqual(
      expect.arrayContaining(['fs__read_text_file', 'fs__read_multiple_files', 'fs__read_media_file']),
    )
    expect(lines.filter((line) => line.startsWith('warning:'))).toEqual([])
    // Policy on MCP tools, native: redaction, guard, approval rules; the server's own confinement.
    // Redaction reaches what the model sees: the native read of notes.md shows the redacted key,
    // and the secret (or any part of it) appears nowhere in the whole transcript.
    expect(text).toMatch(/fs__read_text_file\(.*notes\.md"\}\) → .*api_key=\[REDACTED\]/)
    expect(text).toMatch(/read\(notes\.md\) → .*api_key=\[REDACTED\]/)
    for (const fragment of ['sk-live', '0123456789abcdef', 'abcdefXYZ']) expect(text).not.toContain(fragment)
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
