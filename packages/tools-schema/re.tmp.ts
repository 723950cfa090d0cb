import { RE2JS } from 're2js'
import { compileLinearPattern } from './src/internal/linear-pattern'

const s = 'a'.repeat(1_000_000)
for (const p of ['^(a+)+$', '^(?:a+)+$', '^a+$', 'b', '^[a-z]*$', '(x+x+)+y']) {
  const re = RE2JS.compile(p)
  const lp = compileLinearPattern(p)
  for (let i = 0; i < 3; i++) {
    let t = performance.now()
    const r1 = re.test(s)
    const a = performance.now() - t
    t = performance.now()
    const r2 = lp.test(s)
    const b = performance.now() - t
    if (i === 2) console.log(p, r1, r2, a.toFixed(1), b.toFixed(1))
  }
}
