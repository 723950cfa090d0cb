const SAMPLE_BYTES = 8192

/**
 * Heuristic binary test on the start of a file: a NUL byte, or bytes that are not valid
 * UTF-8 (a multi-byte sequence cut by the end of the sample is allowed).
 */
export function looksBinary(chunk: Uint8Array): boolean {
  const sample = chunk.subarray(0, SAMPLE_BYTES)
  if (sample.includes(0)) return true
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true })
    return false
  } catch {
    return true
  }
}
