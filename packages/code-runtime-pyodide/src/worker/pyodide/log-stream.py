# The program's stdout and stderr, run in the interpreter before kernel.py (both inlined into the
# worker's source by scripts/pyodide-worker-source.ts). `__dsh_log_stream` receives the run
# channel's `log` closure (see run-channel.ts) and returns the stream the kernel installs as
# sys.stdout and sys.stderr; the bootstrap deletes the name once the kernel is installed.

def __dsh_log_stream(host_log):
    import codecs

    MAX_LINE = 65536

    class LogStream:
        """stdout/stderr: every complete line goes to the host at once. A line is cut at MAX_LINE
        characters: the rest of it is counted and dropped as it arrives, and the line ends with a
        note of how many characters were cut. So no write, however long, and no unterminated line,
        however many writes it takes, keeps more than MAX_LINE characters here. A line written in
        pieces is kept as a list of pieces and joined once, when it ends: re-joining it on every
        write would make a long line cost its length squared. A line past maxLogLines (or
        maxOutputBytes) ends the run inside host_log: the thread exits there, so nothing after it
        runs, and a flood of lines costs at most maxLogLines + 1 calls into JavaScript."""
        def __init__(self):
            self._pieces = []
            self._size = 0
            self._cut = 0
            self.buffer = LogBuffer(self)
        def _keep(self, text, start, end):
            room = MAX_LINE - self._size
            if end - start > room:
                self._cut += end - start - room
                end = start + room
            if end > start:
                self._pieces.append(text[start:end])
                self._size += end - start
        def _end_line(self):
            line = "".join(self._pieces)
            if self._cut:
                line += " [" + str(self._cut) + " more characters cut]"
            self._pieces, self._size, self._cut = [], 0, 0
            host_log(line)
        def write(self, text):
            if not isinstance(text, str):
                raise TypeError("write() argument must be str, not " + type(text).__name__)
            start = 0
            while True:
                end = text.find("\n", start)
                if end < 0:
                    self._keep(text, start, len(text))
                    return len(text)
                self._keep(text, start, end)
                self._end_line()
                start = end + 1
        def flush(self):
            pass
        def close_run(self):
            # A line still open when the program ends is its last line.
            if self._size or self._cut:
                self._end_line()
        def isatty(self):
            return False
        def writable(self):
            return True

    class LogBuffer:
        """sys.stdout.buffer / sys.stderr.buffer: bytes are decoded as UTF-8 (a sequence split
        across writes is completed by the next) and written to the text stream."""
        def __init__(self, stream):
            self._stream = stream
            self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        def write(self, data):
            view = memoryview(data)
            self._stream.write(self._decoder.decode(view))
            return view.nbytes
        def flush(self):
            pass
        def isatty(self):
            return False
        def writable(self):
            return True

    return LogStream()
