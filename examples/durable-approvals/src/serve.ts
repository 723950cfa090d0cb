// One service process: `node --conditions=@dsh/source --import tsx src/serve.ts <db> <deploy-log>`.
// Prints `listening <port>` once it accepts requests.
import { createApp, serve } from './service'

const [db, deployLog] = process.argv.slice(2) as [string, string]
const ctx = await createApp(db, deployLog)
const port = await serve(ctx, 0)
process.stdout.write(`listening ${port}\n`)
