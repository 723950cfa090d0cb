/**
 * `pnpm generate`: writes every generated worker source of this package. Worker code runs from
 * a string (`new Worker(source, { eval: true })`, `node -e`), so its typechecked TypeScript
 * modules are bundled into checked-in string modules; the same source then works from `src`
 * under vitest and from the tsup bundle without a build-time plugin.
 * `tests/worker-sources.spec.ts` fails when any of them is stale.
 *
 * Run `pnpm --filter @dsh/code-runtime-worker-thread generate` after editing `src/worker/**` or
 * `src/process/relay.ts`.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  buildNodeVmWorkerModule,
  buildRelayModule,
  NODE_VM_GENERATED_PATH,
  RELAY_GENERATED_PATH,
} from './node-vm-worker-source'
import { buildQuickJSWorkerModule, GENERATED_PATH as QUICKJS_GENERATED_PATH } from './quickjs-worker-source'

/** Each generated module: its path and how to build its text. */
export const GENERATED_MODULES: readonly { readonly path: string; readonly build: () => Promise<string> }[] =
  [
    { path: QUICKJS_GENERATED_PATH, build: buildQuickJSWorkerModule },
    { path: NODE_VM_GENERATED_PATH, build: buildNodeVmWorkerModule },
    { path: RELAY_GENERATED_PATH, build: buildRelayModule },
  ]

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const module of GENERATED_MODULES) writeFileSync(module.path, await module.build())
}
