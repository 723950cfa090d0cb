# The Python half of the Pyodide worker, run once per interpreter before the interpreter is
# handed to a program (inlined into the worker's source by scripts/pyodide-worker-source.ts).
#
# `__dsh_install` receives the JavaScript host functions -- plain closures that post to the host
# (see run-channel.ts) -- and returns `(deliver, start)`. It then closes the interpreter's ways
# out: JavaScript-bridge and package-loading modules are evicted and refused at import time, and
# stdout/stderr become the run's log stream (`__dsh_log_stream`, defined by log-stream.py, which
# runs first). The program itself is compiled as the body of an `async def` (top-level `await`
# and `return`) with file name `<program>`, so tracebacks show only program frames. The completion statuses are the runtime kit's `DoneStatus` values.

def __dsh_install(host_log, host_call, host_done, blocked_text, max_argument_chars, max_depth, host_reads):
    import ast, asyncio, builtins, faulthandler, json, random, sys, time, traceback

    # Its dumps would show the kernel's frames; a crash ends the run anyway.
    faulthandler.disable()

    OK, EXCEPTION, INVALID_OUTPUT = 0, 1, 2
    SAFE_INT = 2 ** 53 - 1
    MAX_NODES = 1_000_000
    blocked = frozenset(blocked_text.split(","))

    def is_blocked(name):
        return name.split(".")[0] in blocked

    class Refuse:
        """A meta-path finder that refuses every module without ambient-authority value."""
        @staticmethod
        def find_spec(name, path=None, target=None):
            if is_blocked(name):
                raise ImportError("module " + repr(name) + " is not available in run_code")
            return None

    sys.meta_path.insert(0, Refuse)
    for name in list(sys.modules):
        if is_blocked(name):
            del sys.modules[name]

    class ToolCallError(Exception):
        """Raised by a failed tool call."""
        def __init__(self, tool_name, message):
            super().__init__(message)
            self.tool_name = tool_name
            self.message = message

    # Tracebacks name it as the SDK does, not as a kernel local.
    ToolCallError.__qualname__ = "ToolCallError"
    ToolCallError.__module__ = "builtins"

    out = __dsh_log_stream(host_log)
    sys.stdout = out
    sys.stderr = out
    sys.__stdout__ = out
    sys.__stderr__ = out

    pending = {}
    counter = [0]
    allowed = set()

    # Pyodide's event loop runs every call_soon callback in its own setImmediate, through a
    # fresh once-callable JavaScript proxy. A sequential "await tools.x()" pays that hop for each
    # reply. Instead, ready callbacks wait in a queue: a reply's delivery runs the callbacks that
    # are ready right away (the awaiting task resumes in the same turn as the reply), and any
    # other burst shares one setImmediate. Only the callbacks queued before a pass starts run in
    # it — later ones wait for the next pass — so a task spinning on "await asyncio.sleep(0)"
    # still lets the worker's event loop deliver replies, as asyncio does between iterations.
    loop = asyncio.get_event_loop()
    web_call_soon = loop.call_soon
    ready = []
    scheduled = [False]

    def run_ready():
        scheduled[0] = False
        batch = ready[:]
        del ready[:]
        loop._install_running_loop()
        for handle in batch:
            if not handle.cancelled():
                handle._run()
        if ready and not scheduled[0]:
            scheduled[0] = True
            web_call_soon(run_ready)

    def call_soon(callback, *args, context=None):
        handle = asyncio.Handle(callback, args, loop, context=context)
        ready.append(handle)
        if not scheduled[0]:
            scheduled[0] = True
            web_call_soon(run_ready)
        return handle

    loop.call_soon = call_soon
    loop.call_soon_threadsafe = call_soon

    encoder = json.JSONEncoder(allow_nan=False, ensure_ascii=False, separators=(",", ":"))

    get_limit, set_limit, get_frame = sys.getrecursionlimit, sys.setrecursionlimit, sys._getframe

    def encode(args):
        """JSON text of args, or None past the size cap. Encodes lazily, so a shared-reference
        bomb stops at the cap instead of expanding in full. The lazy encoder recurses once per
        nesting level and every chunk climbs back through all of them, so a program that raised
        its recursion limit could make one call cost depth squared: the limit is held to
        max_depth levels above the caller while encoding."""
        depth, frame = 0, get_frame()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back
        saved = get_limit()
        # One generator frame per container, plus the encoder's entry frame.
        set_limit(min(saved, depth + max_depth + 1))
        try:
            parts, size = [], 0
            for chunk in encoder.iterencode(args):
                size += len(chunk)
                if size > max_argument_chars:
                    return None
                parts.append(chunk)
        except RecursionError:
            raise ValueError("nested deeper than " + str(max_depth) + " levels") from None
        finally:
            set_limit(saved)
        return "".join(parts)

    # Recorded and replayed nondeterminism (SPEC 13.3): the program's `time.time`, `time.time_ns`,
    # `time.perf_counter(_ns)` reads and the seed of the `random` module go through `read`. A
    # resumed run answers its first reads from the suspended run's, in order; later reads are kept
    # and handed to the host before the next binding call leaves. `time.monotonic` stays live: the
    # event loop reads it. A read is [kind, value]; nanosecond ints travel as text (beyond 2**53).
    MAX_RECORDED_READS = 100_000
    replay_reads, fresh_reads, replay_at, recorded = [], [], [0], [0]

    def read(kind, live):
        if replay_at[0] < len(replay_reads):
            entry = replay_reads[replay_at[0]]
            if type(entry) is list and len(entry) == 2 and entry[0] == kind:
                replay_at[0] += 1
                return entry[1]
            # Read in another order than the run it resumes: the rest is live; the ledger's
            # argument checks tell whether that changed a call.
            replay_at[0] = len(replay_reads)
        value = live()
        if recorded[0] < MAX_RECORDED_READS:
            recorded[0] += 1
            fresh_reads.append([kind, value])
        return value

    def flush_reads():
        if fresh_reads:
            text = json.dumps(fresh_reads)
            fresh_reads.clear()
            host_reads(text)

    def install_reads(reads_text):
        if reads_text:
            try:
                parsed = json.loads(reads_text)
                if type(parsed) is list:
                    replay_reads[:] = parsed
                    recorded[0] = len(parsed)
            except ValueError:
                pass
        live_time, live_time_ns = time.time, time.time_ns
        live_perf, live_perf_ns = time.perf_counter, time.perf_counter_ns
        time.time = lambda: read("t", live_time)
        time.time_ns = lambda: int(read("tn", lambda: str(live_time_ns())))
        time.perf_counter = lambda: read("p", live_perf)
        time.perf_counter_ns = lambda: int(read("pn", lambda: str(live_perf_ns())))
        random.seed(read("s", lambda: random.SystemRandom().getrandbits(52)))

    def call(name, args):
        flush_reads()
        loop = asyncio.get_event_loop()
        future = loop.create_future()
        try:
            text = encode(args)
        except (TypeError, ValueError, RecursionError, MemoryError, OverflowError) as error:
            future.set_exception(ToolCallError(name, "arguments for " + name + " are not JSON: " + str(error)))
            return future
        if text is None:
            future.set_exception(ToolCallError(
                name, "arguments for " + name + " exceed " + str(max_argument_chars) + " characters of JSON"))
            return future
        counter[0] += 1
        pending[counter[0]] = (name, future)
        host_call(counter[0], name, text)
        return future

    def binding(name):
        def bound(args=None):
            return call(name, {} if args is None else args)
        bound.__name__ = name
        bound.__qualname__ = "tools." + name
        return bound

    def distance(x, y):
        """Edit distance with adjacent swaps (tools-core's closestNames, ported)."""
        before, previous = [0] * (len(y) + 1), list(range(len(y) + 1))
        for i in range(1, len(x) + 1):
            current = [i] + [0] * len(y)
            for j in range(1, len(y) + 1):
                best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] != y[j - 1]))
                if i > 1 and j > 1 and x[i - 1] == y[j - 2] and x[i - 2] == y[j - 1]:
                    best = min(best, before[j - 2] + 1)
                current[j] = best
            before, previous = previous, current
        return previous[len(y)]

    def closest(requested):
        """Up to three binding names close to requested, best first (ties in name order)."""
        if not requested or len(requested) > 128:
            return []
        wanted, scored = requested.lower(), []
        for name in sorted(allowed):
            other = name.lower()
            d = distance(wanted, other)
            contains = len(wanted) >= 3 and len(other) >= 3 and (wanted in other or other in wanted)
            if d <= max(2, max(len(name), len(requested)) // 3) or contains:
                scored.append((d, name))
        return [name for _, name in sorted(scored)[:3]]

    def unknown_binding(name):
        """A mistyped name: calling it returns a failed future (the ToolCallError a native call's
        "did you mean" would give), so await raises it and an unawaited call ends nothing."""
        close = ["`" + n + "`" for n in closest(name)]
        hint = ""
        if close:
            hint = " — did you mean " + (close[0] if len(close) == 1 else ", ".join(close[:-1]) + " or " + close[-1]) + "?"
        if "tool_search" in allowed:
            hint += "; a deferred tool must be loaded with `tools.tool_search(...)` first (it is a binding from the next run)"
        message = "unknown tool: " + name + " is not a binding of this run" + hint
        def refuse(args=None):
            future = asyncio.get_event_loop().create_future()
            future.set_exception(ToolCallError(name, message))
            return future
        refuse.__name__ = name
        refuse.__qualname__ = "tools." + name
        return refuse

    class Tools:
        """The tool bindings: tools.name(args) or tools["exotic-name"](args). Any other public
        name is a mistyped tool: calling it fails with a ToolCallError that suggests close names."""
        __slots__ = ()
        def __getattr__(self, name):
            if name in allowed:
                return binding(name)
            if name.startswith("_"):
                raise AttributeError("no tool named " + repr(name))
            return unknown_binding(name)
        def __getitem__(self, name):
            if isinstance(name, str) and name in allowed:
                return binding(name)
            if isinstance(name, str):
                return unknown_binding(name)
            raise KeyError("no tool named " + repr(name))
        def __contains__(self, name):
            return name in allowed
        def __dir__(self):
            return sorted(allowed)
        def __repr__(self):
            return "<tools: " + ", ".join(sorted(allowed)) + ">"

    def deliver(call_id, ok, text, message):
        entry = pending.pop(call_id, None)
        if entry is None:
            return
        name, future = entry
        if future.done():
            return
        if ok:
            future.set_result(json.loads(text))
        else:
            future.set_exception(ToolCallError(text, message))
        run_ready()

    def path_of(node):
        """The path text of a json_problem node: (parent node, key or index), or None for the root.
        Long keys and long paths are shortened (the middle elided), so a report stays small."""
        parts = []
        while node is not None:
            node, key = node
            if type(key) is str:
                key = json.dumps(key[:64]) + ("..." if len(key) > 64 else "")
            parts.append("[" + str(key) + "]")
        parts.reverse()
        if len(parts) > 32:
            parts[16:-16] = ["..."]
        return "$" + "".join(parts)

    def json_problem(root):
        """Why root is not lossless JSON, with the path of the offending value (None if it is).
        Iterative, with a node budget and a depth cap: the encoder that follows recurses in C, and
        too deep a value would overflow the WebAssembly stack and kill the interpreter. Paths are
        built only for the value reported, so a deep value does not cost depth squared."""
        stack = [(root, None, 0)]
        count = 0
        while stack:
            value, node, depth = stack.pop()
            count += 1
            if count > MAX_NODES:
                return "more than " + str(MAX_NODES) + " values (or a cycle) at " + path_of(node)
            if value is None or isinstance(value, (bool, str)):
                continue
            if type(value) is int:
                if -SAFE_INT <= value <= SAFE_INT:
                    continue
                return "an integer beyond 2**53-1 at " + path_of(node)
            if type(value) is float:
                if value == value and value not in (float("inf"), float("-inf")):
                    continue
                return "a non-finite number at " + path_of(node)
            if type(value) is list or type(value) is tuple or type(value) is dict:
                if depth >= max_depth:
                    return "a value nested deeper than " + str(max_depth) + " levels at " + path_of(node)
                if type(value) is dict:
                    for key, item in value.items():
                        if type(key) is not str:
                            return "a non-string key at " + path_of(node)
                        stack.append((item, (node, key), depth + 1))
                else:
                    for i, item in enumerate(value):
                        stack.append((item, (node, i), depth + 1))
                continue
            return "a value of type " + type(value).__name__ + " at " + path_of(node)
        return None

    def describe(error):
        """The traceback text, keeping only the program's own frames (no host or kernel paths)."""
        try:
            info = traceback.TracebackException.from_exception(error)
            info.stack = traceback.StackSummary.from_list(
                [frame for frame in info.stack if frame.filename == "<program>"]
            )
            text = "".join(info.format(chain=False))
        except BaseException:
            text = "the program raised an exception that could not be described"
        return text.rstrip("\n")

    def compile_program(source):
        tree = ast.parse(source, "<program>", "exec")
        wrapper = ast.AsyncFunctionDef(
            name="__program", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=tree.body or [ast.Pass()], decorator_list=[], returns=None, type_params=[],
        )
        module = ast.Module(body=[wrapper], type_ignores=[])
        ast.fix_missing_locations(module)
        return compile(module, "<program>", "exec", dont_inherit=True)

    async def main(source):
        try:
            code = compile_program(source)
            scope = {"__name__": "__program__", "__builtins__": builtins, "tools": Tools(),
                     "ToolCallError": ToolCallError, "asyncio": asyncio, "json": json}
            exec(code, scope)
            value = await scope.pop("__program")()
        except BaseException as error:
            out.close_run()
            host_done(EXCEPTION, describe(error))
            return
        out.close_run()
        if value is None:
            host_done(OK, None)
            return
        try:
            problem = json_problem(value)
            text = None if problem else json.dumps(value, allow_nan=False, ensure_ascii=False)
        except BaseException as error:
            problem = "it cannot be encoded (" + type(error).__name__ + ")"
        if problem:
            host_done(INVALID_OUTPUT, "the result is not JSON: " + problem)
            return
        host_done(OK, text)

    def start(source, names_text, reads_text=""):
        allowed.update(json.loads(names_text))
        install_reads(reads_text)
        asyncio.ensure_future(main(source))

    return deliver, start
