// `pnpm demo:mcp`: run the mcp-bridge scenario and print its transcript.
import { runBridge } from './bridge'

await runBridge((line) => console.log(line))
