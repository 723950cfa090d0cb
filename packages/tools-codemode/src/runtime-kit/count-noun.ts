/**
 * A count with its noun in the right number — `1 character`, `2 characters`, `1 property` — so
 * messages never say "expected at least 1 characters".
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}
