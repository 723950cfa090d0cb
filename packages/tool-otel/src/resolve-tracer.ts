import { ProxyTracerProvider, type Tracer, trace } from '@opentelemetry/api'

/** The instrumentation scope name spans are recorded under. */
export const TRACER_NAME = '@dsh/tool-otel'

/**
 * The tracer to record with, or `undefined` when recording would be wasted work: no `tracer`
 * was configured and no SDK is registered as the global provider (the API's global is a proxy
 * that hands out no-op tracers until an SDK registers a delegate). Decided once, at plugin
 * start, so an untraced app pays for no listener at all.
 *
 * @param configured — the tracer from the plugin config, used as given when present.
 */
export function resolveTracer(configured: Tracer | undefined): Tracer | undefined {
  if (configured !== undefined) return configured
  const provider = trace.getTracerProvider()
  // `getDelegateTracer` is the proxy's public way to say "an SDK is registered" without
  // starting a probe span (which a real SDK would export, and a sampler could drop).
  if (provider instanceof ProxyTracerProvider) return provider.getDelegateTracer(TRACER_NAME)
  return provider.getTracer(TRACER_NAME)
}
