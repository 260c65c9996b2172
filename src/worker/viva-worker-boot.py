# viva-worker-boot.py: the Python half of viva-python-worker.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Loaded once at start from the worker's resources. The C half owns the
# channel, the clock and the interrupts; this module only runs code and
# describes what happened, in plain Python types.

import builtins
import io
import linecache
import os
import sys
import traceback
import types

import _viva

CODE = "<code>"
TEST = "<test>"
OURS = (CODE, TEST)


class _Stream(io.TextIOBase):
    """sys.stdout and sys.stderr: every write goes to the channel."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, stream, name):
        super().__init__()
        self._stream = stream
        self._name = name

    @property
    def name(self):
        return self._name

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        _viva.write(self._stream, text)
        return len(text)

    def flush(self):
        pass


def _input(prompt=""):
    if prompt:
        sys.stdout.write(str(prompt))
    raise EOFError("input() is not available when code runs here: nobody can type an answer. "
                   "Put the values in your code instead.")


def emit_figures():
    helpers = sys.modules.get("matplotlib._pylab_helpers")
    if helpers is None:
        return
    try:
        for manager in helpers.Gcf.get_all_fig_managers():
            buffer = io.BytesIO()
            manager.canvas.figure.savefig(buffer, format="png")
            _viva.image(buffer.getvalue())
    finally:
        helpers.Gcf.destroy_all()


# matplotlib draws with Agg into PNG; plt.show() sends the open figures to
# the console instead of warning that Agg cannot show them.
_BACKEND = """
from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg
import _viva_boot

@_Backend.export
class _BackendViva(_BackendAgg):
    @staticmethod
    def show(*args, **kwargs):
        _viva_boot.emit_figures()
"""


class _BackendFinder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "_viva_mpl":
            return None
        import importlib.util
        return importlib.util.spec_from_loader(name, cls)

    @staticmethod
    def create_module(spec):
        return None

    @staticmethod
    def exec_module(module):
        exec(compile(_BACKEND, "<viva-backend>", "exec"), module.__dict__)


def reset():
    global namespace
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    namespace = main.__dict__


def _remember(filename, source):
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def execute(kind, code, probe):
    """Runs the request; returns the exception that ended it, or None."""
    # Code may have replaced or closed them in an earlier run.
    sys.stdout, sys.stderr = _stdout, _stderr
    try:
        if kind == "check":
            compile(code, CODE, "exec", dont_inherit=True)
            return None
        _remember(CODE, code)
        compiled = compile(code, CODE, "exec", dont_inherit=True)
        exec(compiled, namespace)
        if kind == "inject":
            _remember(TEST, probe)
            compiled = compile(probe, TEST, "exec", dont_inherit=True)
            exec(compiled, namespace)
        return None
    except BaseException as error:
        return error


def _trim(te):
    te.stack = traceback.StackSummary.from_list(
        [frame for frame in te.stack if frame.filename in OURS])
    for chained in (te.__cause__, te.__context__):
        if chained is not None:
            _trim(chained)
    return te


def describe(error):
    """The result of a run as a dict of plain values for the channel."""
    if error is None:
        return {"status": "ok"}

    if isinstance(error, SystemExit):
        if error.code is None or error.code == 0 or error.code is False:
            return {"status": "ok"}
        return {"status": "error", "type": "SystemExit",
                "message": f"sys.exit({error.code!r})", "line": _line(error)}

    result = {
        "status": "interrupted" if isinstance(error, KeyboardInterrupt) else "error",
        "type": type(error).__name__,
        "message": str(error),
        "line": _line(error),
    }

    if isinstance(error, SyntaxError) and error.filename in OURS:
        result["message"] = error.msg or ""
        result["line"] = (error.lineno or 0) if error.filename == CODE else 0
        result["column"] = error.offset or 0
        result["where"] = "code" if error.filename == CODE else "test"
    else:
        result["where"] = _where(error)

    try:
        te = traceback.TracebackException(type(error), error, error.__traceback__)
        result["traceback"] = "".join(_trim(te).format())
    except Exception:
        result["traceback"] = "".join(traceback.format_exception_only(type(error), error))
    return result


def _frames(error):
    return [frame for frame, _ in traceback.walk_tb(error.__traceback__)]


def _line(error):
    line = 0
    for frame in _frames(error):
        if frame.f_code.co_filename == CODE:
            line = frame.f_lineno
    return line


def _where(error):
    for frame in reversed(_frames(error)):
        if frame.f_code.co_filename == CODE:
            return "code"
        if frame.f_code.co_filename == TEST:
            return "test"
    return "code"


_real_exit = os._exit


def _exit(status):
    """os._exit(), after what was printed has gone to the app."""
    try:
        _viva.flush()
    finally:
        _real_exit(status)


def setup():
    sys.modules["_viva_boot"] = sys.modules[__name__]
    import posix
    os._exit = posix._exit = _exit
    global _stdout, _stderr
    _stdout = sys.stdout = _Stream(1, "<stdout>")
    _stderr = sys.stderr = _Stream(2, "<stderr>")
    sys.stdin = io.StringIO("")
    sys.argv = [""]
    builtins.input = _input
    sys.meta_path.append(_BackendFinder)
    os.environ["MPLBACKEND"] = "module://_viva_mpl"
    # A segfault prints the Python stack on the real stderr, which the app reads.
    import faulthandler
    faulthandler.enable(file=_viva.crash_fd)
    reset()
