/**
 * The per-sub-call path between the worker and the engine, through the embedding library's FFI
 * (`QuickJSWASMModule.getFFI`) instead of its handle layer.
 *
 * Why: quickjs-emscripten-core wraps every crossing in `Lifetime`/`Scope` objects, builds
 * argument arrays with `malloc` per call, and runs each host-function callback through its
 * generator-based maybe-async machinery. For a sequential tool call (settle a reply, run the
 * jobs it queued, take the next call) that glue cost more than the engine itself, and in a fresh
 * worker — the only kind a run gets — it is also cold code. Here the three crossings are a few
 * direct FFI calls each, with one scratch allocation made once per engine.
 *
 * Everything else (boot, evaluation, errors, descriptions) still goes through the library's
 * handles; a failure on this path is returned as a library handle so the caller treats it the
 * same way.
 */
import {
  type EitherFFI,
  type JSContextPointer,
  type JSRuntimePointer,
  type JSValueConstPointer,
  type JSValuePointer,
  Lifetime,
  type QuickJSContext,
  type QuickJSEmscriptenModule,
  type QuickJSHandle,
  type QuickJSRuntime,
} from 'quickjs-emscripten-core'

/** What a call through the link returned: the number the function returned, or its exception. */
export type LinkResult =
  | { readonly value: number; readonly error?: undefined }
  | { readonly value?: undefined; readonly error: QuickJSHandle }

/**
 * quickjs-emscripten-core keeps a context's engine pointers protected. The package pins the
 * library's exact version, and `tests/engine-link.spec.ts` fails if these fields move.
 */
interface EnginePointers {
  readonly ctx: { readonly value: JSContextPointer }
  readonly rt: { readonly value: JSRuntimePointer }
}

/** The worker's side of a host function served by the link: two strings in, a number or string out. */
export type StringPairFunction = (first: string, second: string) => number | string

/** The direct FFI path of one engine context (see the module comment). */
export class EngineLink {
  private readonly ctx: JSContextPointer
  private readonly rt: JSRuntimePointer
  private readonly undefinedValue: JSValueConstPointer
  /**
   * Eight scratch bytes in the engine's memory: one call argument, then the job-context slot.
   * Allocated once and never freed: the engine lives exactly as long as its worker.
   */
  private readonly scratch: number
  private words: Int32Array
  /** Host functions the link serves, by the library's id for them. */
  private readonly served = new Map<number, StringPairFunction>()
  /** Set while a new function is called once through the library, to learn its id. */
  private probed: number | undefined

  constructor(
    private readonly module: QuickJSEmscriptenModule,
    private readonly ffi: EitherFFI,
    private readonly vm: QuickJSContext,
    private readonly runtime: QuickJSRuntime,
  ) {
    const pointers = vm as unknown as EnginePointers
    this.ctx = pointers.ctx.value
    this.rt = pointers.rt.value
    if (typeof this.ctx !== 'number' || typeof this.rt !== 'number' || this.ctx === 0 || this.rt === 0) {
      throw new Error('the embedding library no longer exposes its engine pointers')
    }
    this.undefinedValue = vm.undefined.value as JSValueConstPointer
    this.scratch = this.alloc(8)
    this.words = new Int32Array(module.HEAPU8.buffer)
    // The engine looks its callbacks up on the module at each call; served functions stop here.
    const library = module.callbacks
    module.callbacks = {
      ...library,
      callFunction: (asyncify, ctx, thisPtr, argc, argv, id) => {
        const fn = ctx === this.ctx ? this.served.get(id) : undefined
        if (fn !== undefined) return this.serve(fn, argc, argv)
        this.probed = id
        return library.callFunction(asyncify, ctx, thisPtr, argc, argv, id)
      },
    }
  }

  /**
   * A host function named `name` whose calls the link serves with `fn`, bypassing the library's
   * callback layer. The library creates it; calling it once through the library's own path tells
   * the link its id.
   */
  newStringPairFunction(name: string, fn: StringPairFunction): QuickJSHandle {
    const handle = this.vm.newFunction(name, () => undefined)
    this.probed = undefined
    const probe = this.vm.callFunction(handle, this.vm.undefined)
    const id = this.probed
    this.probed = undefined
    this.vm.unwrapResult(probe).dispose()
    if (id === undefined) {
      handle.dispose()
      throw new Error(`the host function ${name} could not be identified`)
    }
    this.served.set(id, fn)
    return handle
  }

  /** Call `fn` (an engine function) with one string; it must return a number. */
  callWithString(fn: QuickJSHandle, text: string): LinkResult {
    const { ffi, ctx } = this
    const arg = this.newStringValue(text)
    const argError = ffi.QTS_ResolveException(ctx, arg)
    if (argError !== 0) {
      ffi.QTS_FreeValuePointer(ctx, arg)
      return { error: this.handle(argError) }
    }
    this.word()[this.scratch >> 2] = arg
    const result = ffi.QTS_Call(ctx, fn.value, this.undefinedValue, 1, this.scratch as never)
    ffi.QTS_FreeValuePointer(ctx, arg)
    const error = ffi.QTS_ResolveException(ctx, result)
    if (error !== 0) {
      ffi.QTS_FreeValuePointer(ctx, result)
      return { error: this.handle(error) }
    }
    const value = ffi.QTS_GetFloat64(ctx, result)
    ffi.QTS_FreeValuePointer(ctx, result)
    return { value }
  }

  /**
   * Run every pending job. The engine's loop (`QTS_ExecutePendingJob` with no limit) stops only
   * when the queue is empty or a job threw, so after a success nothing is left to run; after an
   * exception more jobs may be queued and the caller drains again.
   */
  drainJobs(): LinkResult {
    const { ffi, rt } = this
    const slot = (this.scratch >> 2) + 1
    this.word()[slot] = 0
    const result = ffi.QTS_ExecutePendingJob(rt, -1, (this.scratch + 4) as never)
    const jobContext = this.word()[slot] as JSContextPointer
    if (jobContext === 0) {
      ffi.QTS_FreeValuePointerRuntime(rt, result)
      return { value: 0 }
    }
    const typeChars = ffi.QTS_Typeof(jobContext, result)
    const typeName = this.module.UTF8ToString(typeChars as never)
    this.module._free(typeChars)
    if (typeName === 'number') {
      const value = ffi.QTS_GetFloat64(jobContext, result)
      ffi.QTS_FreeValuePointer(jobContext, result)
      return { value }
    }
    if (jobContext !== this.ctx) {
      ffi.QTS_FreeValuePointer(jobContext, result)
      throw new Error('a job of another engine context failed')
    }
    return { error: this.handle(result) }
  }

  private serve(fn: StringPairFunction, argc: number, argv: JSValueConstPointer): JSValuePointer {
    const { ffi, ctx } = this
    let answer: number | string
    try {
      answer = argc < 2 ? 'malformed host call' : fn(this.stringArg(argv, 0), this.stringArg(argv, 1))
    } catch (error) {
      answer = `the host call failed: ${error instanceof Error ? error.message : 'unknown error'}`
    }
    // The engine takes ownership of the returned value, as with the library's own callbacks.
    return typeof answer === 'number' ? ffi.QTS_NewFloat64(ctx, answer) : this.newStringValue(answer)
  }

  private stringArg(argv: JSValueConstPointer, index: number): string {
    const { ffi, ctx } = this
    const chars = ffi.QTS_GetString(ctx, ffi.QTS_ArgvGetJSValueConstPointer(argv, index))
    if ((chars as number) === 0) throw new Error('out of memory')
    const text = this.module.UTF8ToString(chars as never)
    ffi.QTS_FreeCString(ctx, chars)
    return text
  }

  private newStringValue(text: string): JSValuePointer {
    const bytes = this.module.lengthBytesUTF8(text) + 1
    const chars = this.alloc(bytes)
    this.module.stringToUTF8(text, chars as never, bytes)
    const value = this.ffi.QTS_NewString(this.ctx, chars as never)
    this.module._free(chars)
    return value
  }

  private alloc(bytes: number): number {
    const pointer = this.module._malloc(bytes)
    // The engine's memory is capped: a failed allocation is the run's out-of-memory, not a write to 0.
    if (pointer === 0) throw new Error('out of memory')
    return pointer
  }

  /** The memory's words, re-viewed after the memory grew (growing detaches the old buffer). */
  private word(): Int32Array {
    if (this.words.buffer !== this.module.HEAPU8.buffer)
      this.words = new Int32Array(this.module.HEAPU8.buffer)
    return this.words
  }

  private handle(pointer: JSValuePointer): QuickJSHandle {
    const { ffi, ctx } = this
    return new Lifetime(
      pointer,
      undefined,
      (value: JSValuePointer) => ffi.QTS_FreeValuePointer(ctx, value),
      this.runtime,
    )
  }
}
