/**
 * Builds the node:vm engine's worker source and the run process's relay source from their
 * TypeScript modules: the kernel (`src/worker/node-vm/kernel.ts`) is bundled into a script that
 * evaluates, inside the `vm` context, to its `createKernel` function; the worker program
 * (`src/worker/node-vm/worker.ts`) is bundled as CommonJS with that script inlined; the relay
 * (`src/process/relay.ts`) is bundled as CommonJS for `node -e`. `generate.ts` writes them.
 */
import { bundleWorker, generatedModule, here } from './bundle-worker'

/** Where the generated node:vm worker module lives. */
export const NODE_VM_GENERATED_PATH = here('../src/worker/node-vm/generated/node-vm-worker-source.ts')
/** Where the generated relay module lives. */
export const RELAY_GENERATED_PATH = here('../src/process/generated/relay-source.ts')

/** The generated node:vm worker module's full text. */
export async function buildNodeVmWorkerModule(): Promise<string> {
  const kernel = await bundleWorker('../src/worker/node-vm/kernel.ts', {
    format: 'iife',
    globalName: 'nodeVmKernel',
    platform: 'neutral',
    target: 'es2022',
  })
  // Wrapped in a function so the bundle's `var` stays local: the script evaluates to the factory.
  const kernelScript = `(function () {\n'use strict';\n${kernel}return nodeVmKernel.createKernel\n})()`
  const worker = await bundleWorker('../src/worker/node-vm/worker.ts', {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    define: { __NODE_VM_KERNEL_SOURCE__: JSON.stringify(kernelScript) },
  })
  return generatedModule(
    'src/worker/node-vm',
    'The node:vm worker program (CommonJS, for `new Worker(source, { eval: true })`).',
    'NODE_VM_WORKER_SOURCE',
    worker,
  )
}

/** The generated relay module's full text. */
export async function buildRelayModule(): Promise<string> {
  const relay = await bundleWorker('../src/process/relay.ts', {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
  })
  return generatedModule(
    'src/process/relay.ts',
    "The run process program for `isolation: 'process'` (CommonJS, for `node -e`).",
    'RELAY_SOURCE',
    relay,
  )
}
