// `pnpm demo:approvals`: the durable-approvals demo, printed step by step.
import { runDemo } from './demo'

await runDemo((line) => console.log(line))
