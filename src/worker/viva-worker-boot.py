# viva-worker-boot.py: the Python half of viva-python-worker.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Loaded once at start from the worker's resources. The C half owns the
# channel, the clock and the interrupts; this module only runs code and
# describes what happened, in plain Python types.

import builtins
import io
import json
import linecache
import math
import os
import sys
import traceback
import types

import _viva

CODE = "<code>"
TEST = "<test>"
SETUP = "<setup>"
CALL = "<call>"
CHECK = "<check>"
OURS = (CODE, TEST)

# Plain data crossing from a student's process to the grader's: bounds the
# grader (viva-grader-value.c) checks again, since code in the student's
# process can change this module.
MAX_DEPTH = 32
MAX_NODES = 100000
MAX_TEXT = 1 << 20
MAX_DIGITS = 4000
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64")


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


def drop_figures():
    helpers = sys.modules.get("matplotlib._pylab_helpers")
    if helpers is not None:
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


class NotComparable(Exception):
    """A value that is not plain data, or too large to send."""

    def __init__(self, kind, what):
        super().__init__(what)
        self.kind = kind


def _encode(value, depth, budget):
    if depth > MAX_DEPTH:
        raise NotComparable("too-large", f"nested deeper than {MAX_DEPTH} levels")
    budget[0] -= 1
    if budget[0] < 0:
        raise NotComparable("too-large", f"more than {MAX_NODES} values")
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is int:
        if -(1 << 53) < value < (1 << 53):
            return value
        if value.bit_length() > MAX_DIGITS * 3:
            raise NotComparable("too-large", "an int with too many digits")
        return {"int": str(value)}
    if kind is float:
        if math.isfinite(value):
            return value
        return {"float": "nan" if value != value else ("inf" if value > 0 else "-inf")}
    if kind is str:
        budget[0] -= len(value) // 16
        if budget[0] < 0:
            raise NotComparable("too-large", f"more than {MAX_TEXT} characters")
        return value
    if kind is list:
        return [_encode(v, depth + 1, budget) for v in value]
    if kind is tuple:
        return {"tuple": [_encode(v, depth + 1, budget) for v in value]}
    if kind is dict:
        return {"dict": [[_encode(k, depth + 1, budget), _encode(v, depth + 1, budget)]
                         for k, v in value.items()]}
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if kind is numpy.ndarray:
            dtype = str(value.dtype)
            if dtype not in DTYPES:
                raise NotComparable("not-plain-data", f"numpy array of {dtype}")
            if value.size > MAX_NODES or value.ndim > MAX_DEPTH:
                raise NotComparable("too-large", f"more than {MAX_NODES} values")
            budget[0] -= value.size
            if budget[0] < 0:
                raise NotComparable("too-large", f"more than {MAX_NODES} values")
            flat = [_encode(v, depth + 1, budget) for v in value.reshape(-1).tolist()]
            return {"ndarray": flat, "dtype": dtype, "shape": list(value.shape)}
        if isinstance(value, numpy.generic) and kind.__module__ == "numpy" and \
                str(numpy.dtype(kind)) in DTYPES:
            return _encode(value.item(), depth, budget)
    raise NotComparable("not-plain-data", getattr(kind, "__qualname__", "object"))


def encode(value):
    """The value as JSON text of plain data, or NotComparable."""
    text = json.dumps(_encode(value, 0, [MAX_NODES]), allow_nan=False,
                      ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_TEXT:
        raise NotComparable("too-large", f"more than {MAX_TEXT} characters")
    return text


def _decode(node):
    # Only in the grader's process, on text the app has checked already.
    if isinstance(node, list):
        return [_decode(v) for v in node]
    if isinstance(node, dict):
        if "tuple" in node:
            return tuple(_decode(v) for v in node["tuple"])
        if "dict" in node:
            return {_decode(k): _decode(v) for k, v in node["dict"]}
        if "int" in node:
            return int(node["int"])
        if "float" in node:
            return float(node["float"])
        if "ndarray" in node:
            import numpy
            flat = [_decode(v) for v in node["ndarray"]]
            return numpy.array(flat, dtype=node["dtype"]).reshape(node["shape"])
        raise ValueError("not a value Viva sent")
    return node


def decode(text):
    return _decode(json.loads(text))


# `compare` is type-strict, where == is not: a list is not a tuple, True is
# not 1, 2 is not 2.0 (unless the pack gives a tolerance, which makes ints
# and floats numbers alike), {True: x} is not {1: x}, an array is not a list.
# The rules are the pack README's; messages say where and what kind, never a
# value of the reference.

_KINDS = {type(None): "None", bool: "bool", int: "int", float: "float", str: "str",
          list: "list", tuple: "tuple", dict: "dict"}


def _kind(value):
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):
        return "array"
    return _KINDS.get(type(value), type(value).__name__)


def _a(kind):
    if kind == "None":
        return kind
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _array_kind(array):
    return {"b": "bool", "i": "int", "u": "int", "f": "float"}.get(array.dtype.kind, str(array.dtype))


def _key(value):
    """A dict key as its type and value, so that True and 1 stay apart."""
    kind = type(value)
    if kind is tuple:
        return ("tuple", tuple(_key(v) for v in value))
    if kind is float and value != value:
        return ("float", "nan")
    return (_KINDS.get(kind, kind.__name__), value)


def _numbers_close(a, b, tolerance, where):
    if type(a) is not type(b) and not tolerance > 0:
        raise AssertionError(f"{where} is {_a(_kind(a))} where {_a(_kind(b))} was expected")
    if a == b or (a != a and b != b):
        return
    if tolerance > 0 and math.isfinite(a) and math.isfinite(b) and abs(a - b) <= tolerance:
        return
    raise AssertionError(f"the value at {where} differs from the expected one")


def _close(a, b, tolerance, where):
    """Raises AssertionError saying where @a and @b first differ."""
    ka, kb = _kind(a), _kind(b)
    numbers = ("int", "float")
    if ka in numbers and kb in numbers:
        return _numbers_close(a, b, tolerance, where)
    if ka != kb:
        raise AssertionError(f"{where} is {_a(ka)} where {_a(kb)} was expected")
    if ka == "array":
        if a.shape != b.shape:
            raise AssertionError(f"{where} has shape {a.shape} where {b.shape} was expected")
        ea, eb = _array_kind(a), _array_kind(b)
        if ea != eb and not (tolerance > 0 and {ea, eb} == {"int", "float"}):
            raise AssertionError(f"{where} holds {ea} values where {eb} values were expected")
        import numpy
        for i, (x, y) in enumerate(zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())):
            index = ", ".join(str(int(n)) for n in numpy.unravel_index(i, a.shape))
            if ea == eb == "bool":
                if x != y:
                    raise AssertionError(f"the value at {where}[{index}] differs from the expected one")
            else:
                _numbers_close(x, y, tolerance, f"{where}[{index}]")
        return
    if ka in ("list", "tuple"):
        if len(a) != len(b):
            raise AssertionError(f"{where} has {len(a)} items where {len(b)} were expected")
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, tolerance, f"{where}[{i}]")
        return
    if ka == "dict":
        keys = {_key(k): k for k in a}
        if len(keys) != len(a) or set(keys) != {_key(k) for k in b}:
            raise AssertionError(f"{where} does not have the expected keys")
        for key in b:
            _close(a[keys[_key(key)]], b[key], tolerance, f"{where}[{key!r}]")
        return
    if a != b:
        raise AssertionError(f"the value at {where} differs from the expected one")


def _run(source, filename, mode="exec"):
    _remember(filename, source)
    compiled = compile(source, filename, mode, dont_inherit=True)
    if mode == "eval":
        return eval(compiled, namespace)
    exec(compiled, namespace)
    return None


value = None


def take_value():
    global value
    text, value = value, None
    return text


def _call(code, request):
    """A structured test in the student's process: code, setup, then the call's value."""
    global value
    reset()
    _run(code, CODE)
    _run(request.get("setup", ""), SETUP)
    result = _run(request["call"], CALL, "eval")
    value = encode(result)


def _judge(request):
    """A structured test's check, in a process where no student code ran."""
    reset()
    _run(request.get("setup", ""), SETUP)
    namespace["result"] = decode(request["result"])
    if "expected" in request:
        namespace["expected"] = decode(request["expected"])
    _run(request.get("check", ""), CHECK)
    if request.get("compare"):
        _close(namespace["result"], namespace["expected"],
               float(request.get("tolerance", 0)), "result")


def execute(kind, code, probe, request_text=None):
    """Runs the request; returns the exception that ended it, or None."""
    global value
    value = None
    # Code may have replaced or closed them in an earlier run.
    sys.stdout, sys.stderr = _stdout, _stderr
    try:
        if kind in ("call", "judge"):
            request = json.loads(request_text)
            try:
                _call(code, request) if kind == "call" else _judge(request)
            except SystemExit as error:
                # A value needs a return: ending the process is not one.
                raise RuntimeError(f"the code called sys.exit({error.code!r}) before returning a value") from None
            return None
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

    if isinstance(error, NotComparable):
        return {"status": "error", "type": "VivaNotComparable", "where": error.kind,
                "message": str(error)[:200], "line": 0}

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
        frame = _failing_frame(error)
        if frame is not None:
            # For Explain this error: the frame's variables, described in C
            # without running the program's code (no repr() of its objects).
            try:
                result["frame"] = _viva.frame_text(frame)
            except Exception:
                pass

    try:
        te = traceback.TracebackException(type(error), error, error.__traceback__)
        result["traceback"] = "".join(_trim(te).format())
    except Exception:
        result["traceback"] = "".join(traceback.format_exception_only(type(error), error))
    return result


def _frames(error):
    return [frame for frame, _ in traceback.walk_tb(error.__traceback__)]


def _failing_frame(error):
    for frame in reversed(_frames(error)):
        if frame.f_code.co_filename in OURS:
            return frame
    return None


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
