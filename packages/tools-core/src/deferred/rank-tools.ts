import type { ToolSchema } from '../types'

/** Longest query the ranker reads (characters); the rest is ignored. */
export const MAX_QUERY_CHARS = 4096
/** Most distinct query terms the ranker scores. */
export const MAX_QUERY_TERMS = 64
const MAX_TOKEN_CHARS = 64
const MAX_PARAMETER_NAMES = 256

// Field weights: a term in the name says more than one in a parameter name, which says more
// than one in free prose.
const NAME_WEIGHT = 3
const PARAMETER_WEIGHT = 2
const DESCRIPTION_WEIGHT = 1
// The usual BM25 constants.
const K1 = 1.2
const B = 0.75

// English glue words carry no signal about which tool is meant; they only add noise.
const STOPWORDS = new Set(
  'a an and are as at be by for from in into is it of on or the this that to with'.split(' '),
)

/**
 * Split text into lowercase terms: camelCase, snake_case, kebab-case and digit runs break
 * into words; any script's letters and digits count (`\p{L}`, `\p{N}`); English glue words
 * (`a`, `the`, `to`…) are dropped.
 */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4')
  const out: string[] = []
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length > 0 && !STOPWORDS.has(word)) out.push(word.slice(0, MAX_TOKEN_CHARS))
  }
  return out
}

/** Property names anywhere in a parameter schema (bounded: a hostile schema cannot stall it). */
export function parameterNames(schema: unknown): string[] {
  const names: string[] = []
  const stack: unknown[] = [schema]
  let visited = 0
  while (stack.length > 0 && names.length < MAX_PARAMETER_NAMES && visited++ < 4 * MAX_PARAMETER_NAMES) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null) continue
    const properties = (node as { properties?: unknown }).properties
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, child] of Object.entries(properties)) {
        names.push(name)
        stack.push(child)
      }
    }
    const items = (node as { items?: unknown }).items
    if (items !== undefined) stack.push(items)
  }
  return names.slice(0, MAX_PARAMETER_NAMES)
}

interface Document {
  readonly tool: ToolSchema
  readonly frequencies: Map<string, number>
  readonly length: number
}

function documentOf(tool: ToolSchema): Document {
  const frequencies = new Map<string, number>()
  let length = 0
  const add = (text: string, weight: number) => {
    for (const term of tokenize(text)) {
      frequencies.set(term, (frequencies.get(term) ?? 0) + weight)
      length += weight
    }
  }
  add(tool.name, NAME_WEIGHT)
  add(tool.description, DESCRIPTION_WEIGHT)
  for (const name of parameterNames(tool.parameters)) add(name, PARAMETER_WEIGHT)
  return { tool, frequencies, length }
}

/** One ranked tool. */
export interface RankedTool {
  readonly tool: ToolSchema
  readonly score: number
}

/**
 * Rank `tools` against `query` with BM25 over weighted fields (name, parameter names,
 * description). Deterministic: ties break by name; tools matching no term are left out.
 */
export function rankTools(tools: readonly ToolSchema[], query: string, limit: number): RankedTool[] {
  const terms = [...new Set(tokenize(query.slice(0, MAX_QUERY_CHARS)))].slice(0, MAX_QUERY_TERMS)
  if (terms.length === 0 || tools.length === 0) return []
  const documents = tools.map(documentOf)
  let total = 0
  for (const document of documents) total += document.length
  const average = total / documents.length || 1
  const idf = new Map<string, number>()
  for (const term of terms) {
    let containing = 0
    for (const document of documents) if (document.frequencies.has(term)) containing++
    idf.set(term, Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5)))
  }
  const ranked: RankedTool[] = []
  for (const document of documents) {
    let score = 0
    for (const term of terms) {
      const frequency = document.frequencies.get(term)
      if (frequency === undefined) continue
      const norm = K1 * (1 - B + (B * document.length) / average)
      score += idf.get(term)! * ((frequency * (K1 + 1)) / (frequency + norm))
    }
    if (score > 0) ranked.push({ tool: document.tool, score })
  }
  ranked.sort(
    (a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0),
  )
  return ranked.slice(0, limit)
}
