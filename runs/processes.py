"""The operating system's side of a run: signals, process groups, helpers that must not outlive their run.

The bottom of the run home (``trisolve.runs``): it imports nothing of
trisolve, so the engines may use it (``interrupts_held`` around a solver's
deletion, ``die_with_parent``, ``track_group`` and ``reap_orphans`` for the
helper processes a backend starts), and everything above it shares one
``INTERRUPT`` flag.  Forking a run and watching it is ``isolated.py``'s.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NoReturn

#: Seconds a child may overrun its time limit before it is killed: a fixed part and a share of
#: the limit (``grace_for``), so the whole run ends within about 1 s + 10% of the limit.
GRACE_FIXED, GRACE_SHARE = 0.25, 0.05


def grace_for(limit: float) -> float:
    """How long after its deadline a run's child is killed (its own limit should have stopped it before)."""
    return GRACE_FIXED + GRACE_SHARE * limit


#: Set by Ctrl-C or SIGTERM (``interrupt``): every run in every thread kills its child at its next
#: poll and returns what it has, and no new run starts.
INTERRUPT = threading.Event()


#: The main thread's ``interrupts_held`` stretches: how deep, and whether a signal came during them.
_HELD = {"depth": 0, "pending": False}


def interrupt(signum: int = 0, frame: Any = None) -> None:
    """Signal handler: stop every run at once, and raise KeyboardInterrupt in the main thread.

    Inside a finalizer (a solver's ``__del__``) Python would print the exception and drop it,
    so there the flag alone is set and the next ``raise_if_interrupted`` raises it.  Inside
    ``interrupts_held`` it is raised when the stretch ends.
    """
    INTERRUPT.set()
    if _HELD["depth"]:
        _HELD["pending"] = True
    elif not _in_finalizer(frame):
        raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """A stretch that a KeyboardInterrupt must not cut in two (PySAT freeing a solver and then forgetting
    it): a signal there sets the flag, and KeyboardInterrupt comes when the stretch ends."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers run in the main thread only: nothing can cut this thread's stretch
        return
    _HELD["depth"] += 1
    try:
        yield
    finally:
        _HELD["depth"] -= 1
        if not _HELD["depth"] and _HELD["pending"]:
            _HELD["pending"] = False
            raise KeyboardInterrupt


def _in_finalizer(frame: Any) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def raise_if_interrupted() -> None:
    """For loops that solve in this process (the generators): stop here after Ctrl-C."""
    if INTERRUPT.is_set():
        raise KeyboardInterrupt


def interrupted() -> bool:
    return INTERRUPT.is_set()


def _find_prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up in the parent: a forked child should not call dlopen (it takes
    the dynamic loader's lock, which a thread of the parent may have held at the fork)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


PRCTL = _find_prctl()
#: Forks one at a time: the executors start runs from several threads, and a child forked
#: while another thread is itself forking can inherit a lock that nobody will release.
FORK_LOCK = threading.Lock()


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (no-op elsewhere).

    A child in its own process group does not get the terminal's signals, so
    without this a parent killed by SIGTERM or SIGKILL would leave it running.
    """
    if PRCTL is not None:
        PR_SET_PDEATHSIG = 1
        PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)


#: In a run's child: where ``track_group`` sends the process groups the backend starts (None elsewhere).
_GROUP_SINK: Callable[[int], None] | None = None


def set_group_sink(sink: Callable[[int], None] | None) -> None:
    """In a run's child: where ``track_group`` reports process groups (the pipe to the parent)."""
    global _GROUP_SINK
    _GROUP_SINK = sink


#: Linux's prctl option that makes a process the reaper of its orphaned descendants.
PR_SET_CHILD_SUBREAPER = 36


def reap_orphans() -> None:
    """In a run's child: kill and reap every child process it has left (no-op elsewhere).

    A run's child is its descendants' subreaper (``PR_SET_CHILD_SUBREAPER``): a helper that left the
    run's process groups (a new session) and lost its parent comes here, and is found by its parent pid.
    Only a run's child does this: its only children are the backend's helpers.
    """
    if _GROUP_SINK is None:
        return
    me = os.getpid()
    try:
        names = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return
    for name in names:
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                parent = int(handle.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == me:
            try:
                os.kill(int(name), signal.SIGKILL)
                os.waitpid(int(name), 0)
            except (OSError, ChildProcessError):
                pass


def track_group(pgid: int) -> None:
    """A backend started a helper in its own process group ``pgid`` (the dimacs bridge's SAT command):
    the runner kills that group too when the run ends, whatever happened (no-op outside a run's child)."""
    if _GROUP_SINK is not None:
        _GROUP_SINK(pgid)


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while this thread forks a child: the child starts with them blocked, until
    ``child.in_child`` has put its own handlers in place.  Without it a Ctrl-C to the process group in that window
    ran the parent's handler (``interrupt``) in the child, whose KeyboardInterrupt printed a traceback from
    multiprocessing's start-up.  Here they come when the fork is done."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def kill_group(process: Child) -> None:
    if process.pid is None:
        return
    # SIGKILL cannot be refused, but on a loaded machine dying takes a while: wait to reap it
    for sig, wait in ((signal.SIGTERM, 0.5), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            # not its own group yet (killed right after the fork): the child alone
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, sig)
        process.join(wait)
        if not process.is_alive():
            return


def end_groups(pgids: Iterable[int]) -> None:
    """SIGKILL whatever is left in these process groups: helpers and grandchildren of a finished run.

    The child's own group is killed before it is reaped where possible; after that, its number stays
    reserved as long as any member of the group lives, so the signal reaches no stranger."""
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.killpg(pgid, signal.SIGKILL)


def death_of(process: Child) -> str:
    """Why a run's child ended without sending its result: its exit code, or the signal that killed it."""
    process.join(1.0)
    code = process.exitcode
    if code is None:
        return "backend process stopped answering (it was killed)"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (the kernel's out-of-memory killer sends SIGKILL)" if -code == signal.SIGKILL else ""
        return f"backend process killed by {name}{hint}"
    return f"backend process exited with code {code} before sending its result"


# ------------------------------------------------------------------ the child process and its pipe
# What a run needs of multiprocessing's fork start, by os.fork and os.pipe: importing multiprocessing (its
# connections bring sockets, temporary files and more) cost a one-off solve about a tenth of its start-up.

#: the children ``Child.start`` forked that are not reaped yet (a test checks that a run leaves none)
_UNREAPED: set[int] = set()


def unreaped() -> list[int]:
    """The pids of children started here that nobody has waited for yet."""
    return sorted(_UNREAPED)


class Child:
    """``target(*args)`` in a forked child, which then exits: 0 when it returned, 1 when it raised (the traceback
    on stderr), a ``SystemExit``'s code.  ``exitcode`` is negative when a signal ended it, as multiprocessing
    says it; None while it runs (or if its end could not be learnt)."""

    def __init__(self, target: Callable[..., Any], args: tuple = ()) -> None:
        self._target = target
        self._args = args
        self.pid: int | None = None
        self.exitcode: int | None = None
        self._ended = False

    def start(self) -> None:
        _flush_standard_streams()  # else the child would print again what the parent has not flushed yet
        pid = os.fork()
        if pid == 0:
            _child_body(self._target, self._args)
        self.pid = pid
        _UNREAPED.add(pid)

    def _reaped(self, flags: int) -> bool:
        """Whether the child has ended (and is reaped), waiting for it unless ``flags`` says WNOHANG."""
        if self._ended or self.pid is None:
            return self._ended
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped by someone else: ended, its exit code unknown
            pid, status = self.pid, None
        if pid == 0:
            return False
        self._ended = True
        _UNREAPED.discard(self.pid)
        if status is not None:
            self.exitcode = os.waitstatus_to_exitcode(status)
        return True

    def is_alive(self) -> bool:
        return self.pid is not None and not self._reaped(os.WNOHANG)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the child to end, at most ``timeout`` seconds (None: however long it takes)."""
        if self.pid is None:
            return
        if timeout is None:
            self._reaped(0)
            return
        end, pause = time.monotonic() + timeout, 0.0005
        while not self._reaped(os.WNOHANG):
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(pause, left))
            pause = min(2 * pause, 0.02)


def _child_body(target: Callable[..., Any], args: tuple) -> NoReturn:
    """The forked child's whole life: no return into the parent's code, no exit handlers of the parent's."""
    code = 1
    try:
        if sys.stdin is not None:  # the terminal's input stays the parent's (as multiprocessing does it)
            try:
                sys.stdin.close()
                sys.stdin = open(os.devnull)  # noqa: SIM115 - the child's stdin for its whole life
            except (OSError, ValueError):
                pass
        target(*args)
        code = 0
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
    except BaseException:  # noqa: BLE001 - said on stderr, and in the exit code
        try:
            import traceback

            traceback.print_exc()
        except BaseException:  # noqa: BLE001 - the exit code still says it
            pass
    finally:
        _flush_standard_streams()
        os._exit(code)


def _flush_standard_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BaseException:  # noqa: BLE001 - a closed or broken stream: nothing more to say
            pass


#: Each message's length, before the pickled message.
_LENGTH = struct.Struct("!Q")


class Channel:
    """One end of a pipe that carries pickled messages, each after its length."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, message: Any) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_LENGTH.pack(len(data)) + data)
        while view:
            view = view[os.write(self.fd, view) :]

    def poll(self, timeout: float = 0.0) -> bool:
        """Whether a message (or the end of the pipe) can be read within ``timeout`` seconds."""
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        return bool(poller.poll(max(0, int(timeout * 1000 + 0.999))))

    def recv(self) -> Any:
        """The next message; ``EOFError`` when the writer is gone (also in the middle of a message)."""
        (length,) = _LENGTH.unpack(self._read(_LENGTH.size))
        return pickle.loads(self._read(length))

    def _read(self, size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(self.fd, min(left, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)


def pipe() -> tuple[Channel, Channel]:
    """A one-way pipe: (the end to read, the end to write)."""
    reading, writing = os.pipe()
    return Channel(reading), Channel(writing)
