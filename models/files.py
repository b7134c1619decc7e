"""One way to read and one way to write every file trisolve touches.

Why one module: each file a user names (an instance, a journal, an
``expected.json``, a solution, a plugin, an output) can be a device, a named
pipe, a folder, a 20 GB file, binary data, hostile JSON, or sit on a full
disk.  Every reader and writer here gives the same guarantees, so no command
has to remember them:

* reading: regular files only (a device or a FIFO is refused by name and
  never read to the end: ``/dev/zero`` has no end, a FIFO without a writer
  blocks forever), size-capped *while* reading, decoded as UTF-8;
* JSON: numbers at most ``MAX_NUMBER_CHARS`` long, no ``Infinity`` or
  ``NaN``, nesting at most ``MAX_DEPTH`` deep; each field then checked against
  its type (``fields``);
* writing: a failure (disk full, permission denied, a missing folder, a file
  where a folder should be) is a ``FileProblem`` naming the file, exit 2;
  a file this command reads is never overwritten (``protect``); a file is
  written whole or not at all (a temporary file beside it, fsync, rename),
  and an update of several files changes all of them or none
  (``write_files``); a journal's line is appended whole or not at all, and
  an append never truncates what it did not write.

Every problem is a ``FileProblem`` (a ``LevelSyntaxError``, so ``file:line:
message`` and exit code 2 on the command line).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import math
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import MAX_FILE_BYTES, InstanceTooLarge, LevelSyntaxError, TrisolveError, shorten


class FileProblem(LevelSyntaxError):
    """A file trisolve cannot read or write as asked; names the file (and line), exit code 2."""


class NotJson(FileProblem):
    """Text that does not parse as JSON at all (a journal tells a line torn by a kill by this)."""


#: Largest JSON file read whole (a ``solve --all --json`` of thousands of tilings is a few MB).
MAX_JSON_BYTES = 64_000_000
#: Longest line of a JSON Lines journal (one run record with all its solutions).
MAX_LINE_BYTES = 256_000_000
#: Deepest JSON nesting accepted: trisolve's own files nest at most 5 deep.
MAX_DEPTH = 32
#: Longest number accepted in JSON, in characters: an exact count of a big frame has a few hundred
#: digits; a 5,000-digit number is an attack (and Python's int() refuses over 4,300 digits anyway).
MAX_NUMBER_CHARS = 1000
#: Largest Python plugin file read.
MAX_PLUGIN_BYTES = 4_000_000

_KINDS = (
    (stat.S_ISDIR, "is a folder"),
    (stat.S_ISFIFO, "is a named pipe (FIFO)"),
    (stat.S_ISSOCK, "is a socket"),
    (stat.S_ISCHR, "is a device"),
    (stat.S_ISBLK, "is a device"),
)


def kind_problem(mode: int, what: str) -> str | None:
    """Why a file of this ``st_mode`` cannot be read as ``what`` (None: a regular file)."""
    for test, problem in _KINDS:
        if test(mode):
            joint = "; give" if problem == "is a folder" else ", not"
            return f"{problem}{joint} {_article(what)}"
    return None if stat.S_ISREG(mode) else f"is not a regular file, not {_article(what)}"


def _article(what: str) -> str:
    return ("an " if what[:1] in "aeiou" else "a ") + what


def os_problem(exc: OSError, what: str = "file") -> str:
    """A short reason for an OSError, for a message that names the file itself."""
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno == errno.ELOOP:
        return "symbolic link loop (the link points back to itself)"
    if exc.errno == errno.EISDIR:
        return f"is a folder; give {_article(what)}"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or str(exc)


# ------------------------------------------------------------------ inputs this command reads

#: (device, inode) of every file this process reads or was told it reads (``protect``).
_INPUTS: set[tuple[int, int]] = set()


def protect(*paths: str | os.PathLike) -> None:
    """Mark files as inputs of this command: no writer here will overwrite them.

    Files read through this module are marked by themselves; a command marks
    the files a child process will read (the instance files of ``solve``).
    """
    for path in paths:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(info.st_mode):
            _INPUTS.add((info.st_dev, info.st_ino))


def _check_not_input(path: str) -> None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return
    if (info.st_dev, info.st_ino) in _INPUTS:
        raise FileProblem(path, None, "is an input of this command; refusing to overwrite it (give another file)")


# ------------------------------------------------------------------ reading


def _open_regular(path: str, what: str) -> int:
    """A descriptor on ``path``, which is a regular file (checked on the open descriptor)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        try:  # a socket cannot be opened at all (ENXIO): say what it is
            problem = kind_problem(os.stat(path).st_mode, what)
        except OSError:
            problem = None
        raise FileProblem(path, None, problem or os_problem(exc, what)) from None
    except ValueError:  # a NUL byte in the name
        raise FileProblem(shorten(repr(path)), None, "not a file name (holds a NUL byte)") from None
    try:
        info = os.fstat(fd)
        problem = kind_problem(info.st_mode, what)
        if problem:
            raise FileProblem(path, None, problem)
        _INPUTS.add((info.st_dev, info.st_ino))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: str | os.PathLike, *, what: str = "file", limit: int = MAX_JSON_BYTES) -> bytes:
    """The whole of a regular file, refused once it passes ``limit`` bytes (counted while reading:
    ``getsize`` says 0 for ``/dev/zero``)."""
    path = os.fspath(path)
    fd = _open_regular(path, what)
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileProblem(path, None, f"cannot read: {os_problem(exc, what)}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise InstanceTooLarge(path, None, f"file is over {limit} bytes; {what}s are at most {limit}")
    return b"".join(chunks)


def decode(raw: bytes, path: str, what: str = "file") -> str:
    """UTF-8 text (a byte-order mark is dropped); binary data is refused naming its line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileProblem(path, line, f"not UTF-8 text; {_article(what)} is text") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise FileProblem(path, line, f"holds a NUL byte (binary data); {_article(what)} is text")
    return text


def read_text(path: str | os.PathLike, *, what: str = "file", limit: int = MAX_JSON_BYTES) -> str:
    path = os.fspath(path)
    return decode(read_bytes(path, what=what, limit=limit), path, what)


def read_instance_text(path: str) -> str:
    """An instance file's text: a regular file, at most ``MAX_FILE_BYTES`` (counted while reading), UTF-8."""
    return read_text(path, what="instance file", limit=MAX_FILE_BYTES)


# ------------------------------------------------------------------ JSON with limits


class _Refused(TrisolveError, ValueError):
    """A number or constant the JSON reader refuses (raised by its hooks, caught in ``parse_json``)."""


def _number(text: str, kind: type) -> Any:
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number {len(text)} characters long (at most {MAX_NUMBER_CHARS})")
    value = kind(text)
    if kind is float and not math.isfinite(value):
        raise _Refused(f"the number {shorten(text, 30)} is out of range (not a finite number)")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number trisolve takes (only finite numbers)")


def _depth_ok(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def parse_json(text: str, file: str, line: int | None = None) -> Any:
    """One JSON value, or a FileProblem naming file and line: limits on numbers, constants and depth."""
    try:
        value = json.loads(
            text,
            parse_int=lambda s: _number(s, int),
            parse_float=lambda s: _number(s, float),
            parse_constant=_constant,
        )
    except _Refused as refused:
        raise FileProblem(file, line, str(refused)) from None
    except json.JSONDecodeError as problem:
        at = problem.lineno if line is None else line
        raise NotJson(file, at, f"not JSON: {problem.msg}") from None
    except RecursionError:
        raise FileProblem(file, line, f"JSON nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as problem:  # int() past Python's own digit limit, and the like
        raise FileProblem(file, line, f"not JSON trisolve takes: {shorten(problem, 120)}") from None
    if not _depth_ok(value):
        raise FileProblem(file, line, f"JSON nested too deeply (at most {MAX_DEPTH} levels)")
    return value


def read_json(path: str | os.PathLike, *, what: str = "JSON file", limit: int = MAX_JSON_BYTES) -> Any:
    """A whole file as one JSON value (see ``parse_json``)."""
    path = os.fspath(path)
    return parse_json(read_text(path, what=what, limit=limit), path)


def iter_lines(
    path: str | os.PathLike, *, what: str = "journal", limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes without the newline, whether a newline ended it) for each line of a regular file,
    read as a stream (a journal may be larger than is wise to hold twice); a line over ``limit`` is refused."""
    path = os.fspath(path)
    fd = _open_regular(path, what)
    with os.fdopen(fd, "rb", closefd=True) as handle:
        number = 0
        while True:
            try:
                raw = handle.readline(limit + 1)
            except OSError as exc:
                raise FileProblem(path, number + 1, f"cannot read: {os_problem(exc, what)}") from None
            if not raw:
                return
            number += 1
            ended = raw.endswith(b"\n")
            if not ended and len(raw) > limit:
                raise FileProblem(path, number, f"a line over {limit} bytes; not {_article(what)}")
            yield number, raw[:-1] if ended else raw, ended


# ------------------------------------------------------------------ fields and their types


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {int: "a whole number", float: "a number", str: "a string", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


#: What ``fields`` checks, by name: a test and the words for the message.
KINDS: dict[str, tuple[Any, str]] = {
    "int": (lambda v: type(v) is int, "a whole number"),
    "count": (lambda v: type(v) is int and v >= 0, "a whole number, 0 or more"),
    "bool": (lambda v: type(v) is bool, "true or false"),
    "str": (lambda v: type(v) is str, "a string"),
    "str?": (lambda v: v is None or type(v) is str, "a string or null"),
    "number": (lambda v: type(v) in (int, float), "a number"),
    "list": (lambda v: type(v) is list, "a list"),
    "object": (lambda v: type(v) is dict, "an object"),
    "count?": (lambda v: v is None or (type(v) is int and v >= 0), "a whole number, 0 or more, or null"),
}


def fields(
    data: Any,
    schema: Mapping[str, str],
    file: str,
    line: int | None = None,
    *,
    required: tuple[str, ...] = (),
    what: str = "record",
) -> dict:
    """``data`` checked against ``schema`` (field name -> a ``KINDS`` name): an object holding every
    ``required`` field, each known field of its kind (unknown fields are kept, unchecked)."""
    if type(data) is not dict:
        raise FileProblem(file, line, f"expected {_article(what)} (a JSON object), found {_type_name(data)}")
    for name in required:
        if name not in data:
            raise FileProblem(file, line, f"{what} has no {name!r} field")
    for name, kind in schema.items():
        if name in data:
            test, words = KINDS[kind]
            if not test(data[name]):
                raise FileProblem(file, line, f"{what} field {name!r} must be {words}, not {_type_name(data[name])}")
    return data


def whole(value: Any, what: str) -> int:
    """A whole number from a solution's JSON, exactly: ``1.9``, ``true`` and ``" 1 "`` are refused
    (``int()`` would take all three), with a ValueError saying which field."""
    if type(value) is not int:
        raise ValueError(f"{what} must be a whole number, not {_type_name(value)} {shorten(repr(value), 30)}")
    return value


def listed(value: Any, what: str) -> list:
    """A JSON list from a solution, or a ValueError saying which field is not one."""
    if type(value) is not list:
        raise ValueError(f"{what} must be a list, not {_type_name(value)}")
    return value


def finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None: what trisolve writes is JSON its own readers take."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def dumps(value: Any, **options: Any) -> str:
    """JSON as trisolve writes it: finite numbers only."""
    return json.dumps(finite(value), allow_nan=False, **options)


# ------------------------------------------------------------------ writing


def make_folder(path: str | os.PathLike, what: str = "folder") -> str:
    """``path`` as an existing folder (made, with its parents, when missing); a FileProblem says why not."""
    path = os.fspath(path)
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        raise FileProblem(path, None, f"is a file, not a folder; give a {what}") from None
    except OSError as exc:
        raise FileProblem(path, None, f"cannot create the {what}: {os_problem(exc)}") from None
    return path


def _writable_target(path: str, what: str, *, regular_only: bool, may_be_input: bool = False) -> bool:
    """Checks before writing ``path``; True when it exists and is a regular file.  An append may go to
    a file this command read (a journal it resumes from): it overwrites nothing."""
    if not may_be_input:
        _check_not_input(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise FileProblem(path, None, f"cannot write: {os_problem(exc, what)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise FileProblem(path, None, f"is a folder; give {_article(what)}")
    if regular_only and not stat.S_ISREG(info.st_mode):
        raise FileProblem(path, None, kind_problem(info.st_mode, what) or "is not a regular file")
    return stat.S_ISREG(info.st_mode)


def _missing_folder(folder: str) -> str:
    """Why ``folder`` cannot hold a new file: it is missing, or a part of its path is a file."""
    probe = folder
    while probe and not os.path.lexists(probe):
        probe = os.path.dirname(probe)
    if probe and not os.path.isdir(probe):
        return f"{probe} is a file, not a folder"
    return f"no folder {folder} (create it first)"


def _open_for_writing(path: str, what: str, flags: int) -> int:
    """A write descriptor that never blocks at open: a named pipe with no reader is refused, not waited on."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise FileProblem(path, None, "is a named pipe (FIFO) that no process reads") from None
        raise FileProblem(path, None, f"cannot write: {os_problem(exc, what)}") from None
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except (ImportError, OSError):
        pass
    return fd


def _write_fd(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd``: ``os.write`` may write less than it was given."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "the file took no more bytes")
        view = view[written:]


def _write_record(fd: int, data: bytes) -> None:
    """``data`` (one journal line) added whole or not at all: a write that fails part-way (disk full) is cut off
    again, so a regular file ends where it ended before.  A device takes what it takes."""
    info = os.fstat(fd)
    start = info.st_size if stat.S_ISREG(info.st_mode) else None
    try:
        _write_fd(fd, data)
    except OSError:
        if start is not None:
            try:
                os.ftruncate(fd, start)
                os.lseek(fd, start, os.SEEK_SET)
            except OSError:
                pass  # the reader skips a torn last line
        raise


def write_text(path: str | os.PathLike, text: str, *, what: str = "file", updating: bool = False) -> None:
    """Write ``path`` whole or not at all (``write_files``).  ``updating``: the new text is the file's own,
    read and merged (``--record-expected``), so it may be an input of this command."""
    write_bytes(path, text.encode("utf-8"), what=what, updating=updating)


def write_bytes(path: str | os.PathLike, data: bytes, *, what: str = "file", updating: bool = False) -> None:
    """Write ``path`` whole or not at all (``write_files``); a device or a pipe (``/dev/stdout``) has no
    rename: it is written directly."""
    path = os.fspath(path)
    existing = _writable_target(path, what, regular_only=False, may_be_input=updating)
    if not existing and os.path.exists(path):
        _folder_of(path)
        fd = _open_for_writing(path, what, os.O_TRUNC)
        try:
            _write_fd(fd, data)
        except OSError as exc:
            raise FileProblem(path, None, f"cannot write: {os_problem(exc, what)}") from None
        finally:
            os.close(fd)
        return
    write_files([Change(path, data, what, updating)])


@dataclass(frozen=True)
class Change:
    """One file of an update: the whole of its new content."""

    path: str
    data: bytes
    what: str = "file"
    #: the content is the file's own, read and merged (``--record-expected``): it may be an input
    updating: bool = False

    @classmethod
    def text(cls, path: str | os.PathLike, text: str, what: str = "file", updating: bool = False) -> Change:
        return cls(os.fspath(path), text.encode("utf-8"), what, updating)


@dataclass
class _Target:
    """A file about to be replaced: where, its old metadata (None: it is new), the temporary and backup."""

    change: Change
    path: str
    folder: str
    old: os.stat_result | None
    temporary: str | None = None
    backup: str | None = None
    replaced: bool = False


def write_files(changes: Sequence[Change]) -> None:
    """Write every file whole, or change none of them.

    Why: a file half written (a full disk) or one file of a set rewritten
    without the others (a README whose table no longer matches the data it
    shows) is a lost file.  So:

    1. every target is checked first: not an input of this command, a regular
       file or none yet, its folder there and writable, the file itself not
       read-only, room on the disk for all the new bytes;
    2. every new content goes to a temporary file beside its target
       (``.trisolve-*.tmp``), flushed to the disk (fsync) and given the
       target's permissions (and owner, where allowed);
    3. only then is each renamed over its target (atomic: a reader sees the
       old file or the new, never a part).  With several files, each old file
       is first kept under a second name (a hard link), so a rename that
       fails puts back the ones already done.

    Any failure is a ``FileProblem`` naming the file, after the temporary
    files are removed: the targets are as they were.  (A kill -9 in the
    middle can leave a ``.trisolve-*`` file beside a target, never a target
    cut short.)
    """
    targets = [_prepare(change) for change in changes]
    seen: set[str] = set()
    for target in targets:
        if target.path in seen:
            raise ValueError(f"{target.path} is written twice in one update")
        seen.add(target.path)
    _check_room(targets)
    current = targets[0] if targets else None
    try:
        for current in targets:
            current.temporary = _temporary_copy(current.folder, current.change.data, current.old)
        if len(targets) > 1:
            for current in targets:
                current.backup = _keep_old(current)
        for current in targets:
            assert current.temporary is not None
            os.replace(current.temporary, current.path)
            current.temporary, current.replaced = None, True
    except BaseException as exc:  # a Ctrl-C too: never some files new and others old
        kept = _undo(targets)
        if not isinstance(exc, OSError) or current is None:
            raise
        message = f"cannot write: {os_problem(exc, current.change.what)}"
        if kept:
            message += "; could not put back " + ", ".join(f"{t.path} (its old content is in {t.backup})" for t in kept)
        raise FileProblem(current.path, None, message) from None
    finally:
        for target in targets:
            _remove(target.temporary)
    for target in targets:
        _remove(target.backup)
    for folder in dict.fromkeys(t.folder for t in targets):
        _sync_folder(folder)


def _prepare(change: Change) -> _Target:
    """The checks before anything is written (``write_files``, step 1), bar the room on the disk."""
    path, what = os.fspath(change.path), change.what
    existing = _writable_target(path, what, regular_only=True, may_be_input=change.updating)
    if existing and os.path.islink(path):  # the file the link names is rewritten, and the link kept
        path = os.path.realpath(path)
    folder = _folder_of(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(path, None, f"cannot write: permission denied (the folder {folder} is not writable)")
    old = os.stat(path) if existing else None
    # no write bit for anyone is read-only for root too (root's os.access says yes to every file)
    if old is not None and (not old.st_mode & 0o222 or not os.access(path, os.W_OK)):
        raise FileProblem(path, None, "cannot write: the file is read-only (make it writable, or give another file)")
    return _Target(change, path, folder, old)


def _folder_of(path: str) -> str:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileProblem(path, None, f"cannot write: {_missing_folder(folder)}")
    return folder


def _check_room(targets: Sequence[_Target]) -> None:
    """Room for every new file at once (they sit beside the old ones until the renames), per file system."""
    needed: dict[int, list] = {}  # device -> [first target there, its statvfs, bytes, files]
    for target in targets:
        try:
            device = os.stat(target.folder).st_dev
            room = needed.get(device, [target, os.statvfs(target.folder), 0, 0])
        except OSError:
            continue
        block = max(room[1].f_frsize, 1)
        room[2] += (-(-len(target.change.data) // block) + 1) * block
        room[3] += 2  # the temporary file and the backup's name
        needed[device] = room
    for first, room, size, count in needed.values():
        free = room.f_bavail * room.f_frsize
        if size > free or (room.f_files and count > room.f_favail):
            raise FileProblem(
                first.path, None, f"cannot write: no space left on the device ({size} bytes needed, {free} free)"
            )


def _temporary_copy(folder: str, data: bytes, old: os.stat_result | None) -> str:
    """``data`` in a new temporary file in ``folder``, on the disk (fsync), with ``old``'s permissions
    and owner (a new file: the usual ones, 0666 less the umask)."""
    import tempfile  # only a command that writes a file needs it (with shutil and its kin): not at start-up

    fd, temporary = tempfile.mkstemp(prefix=".trisolve-", suffix=".tmp", dir=folder)
    try:
        _write_fd(fd, data)
        os.fsync(fd)
        if old is not None:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
            if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):  # only root may give a file away: the new one is the writer's
                    os.fchown(fd, old.st_uid, old.st_gid)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
    except BaseException:
        os.close(fd)
        _remove(temporary)
        raise
    os.close(fd)
    return temporary


def _keep_old(target: _Target) -> str | None:
    """A second name for the old file (a hard link; a copy where links are not allowed), so that a later
    rename that fails can put it back; None for a file that is new."""
    if target.old is None:
        return None
    import secrets  # hashlib and hmac come with it: only a command that replaces a file pays for them

    for _ in range(100):
        backup = os.path.join(target.folder, f".trisolve-{secrets.token_hex(6)}.old")
        try:
            os.link(target.path, backup)
            return backup
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV, errno.ENOSYS):
                raise
            with open(target.path, "rb") as handle:
                return _temporary_copy(target.folder, handle.read(), target.old)
    raise OSError(errno.EEXIST, "no free name for a backup")


def _undo(targets: Sequence[_Target]) -> list[_Target]:
    """Put back every target already replaced and drop the other backups; the targets that could not be put
    back are returned, their backups kept (they hold the old content)."""
    failed = []
    for target in targets:
        try:
            if target.replaced and target.backup is not None:
                os.replace(target.backup, target.path)
                target.backup = None
            elif target.replaced:
                os.unlink(target.path)  # it was not there before
        except OSError:
            failed.append(target)
            continue
        target.replaced = False
        _remove(target.backup)
        target.backup = None
    return failed


def _remove(path: str | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _sync_folder(folder: str) -> None:
    """The renames on the disk too (a crash right after keeps the new names)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Output:
    """A text file written line by line as results come (``solve --jsonl``): created or emptied at open.

    Each ``write`` is one line (or a few), added whole or not at all.  A write that fails raises a
    FileProblem naming the file; ``failed`` keeps it, and later writes are skipped, so a command can print
    its answer first and report the failure after.
    """

    def __init__(self, path: str | os.PathLike, *, what: str = "output file") -> None:
        self.path = os.fspath(path)
        self.what = what
        self.failed: FileProblem | None = None
        _writable_target(self.path, what, regular_only=False)
        _folder_of(self.path)
        self.fd: int | None = _open_for_writing(self.path, what, os.O_TRUNC)

    def write(self, text: str) -> None:
        if self.fd is None or self.failed is not None:
            return
        try:
            _write_record(self.fd, text.encode("utf-8"))
        except OSError as exc:
            self.failed = FileProblem(self.path, None, f"cannot write: {os_problem(exc, self.what)}")
            raise self.failed from None

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                os.close(fd)
            except OSError as exc:
                if self.failed is None:
                    self.failed = FileProblem(self.path, None, f"cannot write: {os_problem(exc, self.what)}")


def _last_byte(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return os.pread(fd, 1, os.fstat(fd).st_size - 1)
    finally:
        os.close(fd)


class Appender:
    """An append-only text file (a journal): every write is one whole line (or none of it), on the disk at once,
    and one writer at a time.

    The file must be a regular file (or not exist yet; its folder is made, as a campaign's journal
    names a new folder of runs).  While it is open it holds an advisory lock (``flock``) on the file: a
    second command appending to the same journal (two campaigns on one ``--jsonl``) is refused at once,
    before it reads or writes anything, instead of both running every job.  If its last line has no
    newline (a kill tore it, or someone else wrote it), a newline is added first: what was there stays, whole.
    """

    def __init__(self, path: str | os.PathLike, *, what: str = "journal") -> None:
        self.path = os.fspath(path)
        self.what = what
        existing = _writable_target(self.path, what, regular_only=True, may_be_input=True)
        make_folder(os.path.dirname(os.path.abspath(self.path)))
        self.fd: int | None = _open_for_writing(self.path, what, os.O_APPEND)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise FileProblem(
                self.path,
                None,
                f"another trisolve command is writing to this {what} now (a campaign, crosscheck or mutate with "
                "the same --jsonl); wait for it to end, or give another file",
            ) from None
        except OSError:  # a file system without locks: appending still works, unguarded
            pass
        try:
            if existing and os.fstat(self.fd).st_size > 0 and _last_byte(self.path) != b"\n":
                self._add(b"\n")
        except OSError as exc:
            self.close()
            raise FileProblem(self.path, None, f"cannot write: {os_problem(exc, what)}") from None

    def _add(self, data: bytes) -> None:
        assert self.fd is not None
        _write_record(self.fd, data)
        os.fsync(self.fd)

    def write(self, text: str) -> None:
        if self.fd is None:
            return
        try:
            self._add(text.encode("utf-8"))
        except OSError as exc:
            raise FileProblem(self.path, None, f"cannot write: {os_problem(exc, self.what)}") from None

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            with contextlib.suppress(OSError):
                os.close(fd)
