"""Output files: checked before the work, written whole or not at all, never over an input.

One mechanism for every file clfeval writes (``--output``, ``--predictions``,
the run log and its predictions folder):

* :func:`resolve_output` looks at an output path before any long work: a
  directory is refused, so is a missing or unwritable directory and a file
  that may not be written; an existing symbolic link is followed (its target
  is replaced, the link stays); an existing character device or FIFO
  (``/dev/null``, ``/dev/stdout``, a named pipe) is written through, never
  replaced.
* :func:`check_paths` refuses, naming both, an output that is the same file as
  an input or as another output (same real path, or the same inode: symbolic
  and hard links too), or that lies inside an input directory; an input given
  as a glob pattern is every file the pattern names.
* :func:`atomic_path` and :class:`OutputFiles` write into a temporary file in
  the target's directory and put it in place by one rename. The temporary file
  has no name at all where the system allows it (Linux ``O_TMPFILE``), so even
  ``kill -9`` leaves nothing behind; elsewhere it is a hidden
  ``.<name>.<random>.tmp`` removed on any error, SIGINT or SIGTERM. A replaced
  file keeps its permission bits; a new one gets ``0666 & ~umask``.
* :func:`deferred_signals` holds SIGINT and SIGTERM back while a group of
  outputs is put in place and the run is recorded, so that a signal leaves
  either nothing or everything.

Errors are :class:`~clfeval.errors.OutputFileError` (exit 2), one paragraph
naming the option and the path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePath

from clfeval.errors import OutputFileError

__all__ = ["Target", "resolve_output", "check_paths", "atomic_path", "OutputFiles", "deferred_signals", "FORMATS",
           "EXTENSIONS", "format_of", "output_format", "stdout_error"]

def checkpoint(step: str) -> None:
    """A named step on the way to an output (``"written"``, ``"staged"``, ``"inserted"``, ``"published"``, ...).

    Does nothing. It exists so that a test can replace it, in a child process,
    with a function that sends a signal at that step.
    """


@dataclass(frozen=True)
class Target:
    """Where an output goes, looked at before anything is written.

    Attributes
    ----------
    option : str
        The option that names it (``--output``), for messages.
    given : str
        The path as given.
    path : str
        Where the bytes go: the real path (symbolic links followed) of a file,
        the given path of a device or FIFO.
    kind : {"new", "file", "device", "directory"}
        A file to create, a file to replace, a device or FIFO to write
        through, a directory to write files into.
    mode : int or None
        Permission bits of the file replaced (``None`` otherwise).
    """

    option: str
    given: str
    path: str
    kind: str
    mode: int | None = None


def os_reason(exc: OSError) -> str:
    """An operating-system error in words (``ENOSPC``: the disk is full)."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the device (the disk is full)"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is exceeded"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return exc.strerror or str(exc)


def write_error(option: str, given: str, exc: OSError) -> OutputFileError:
    """The one-paragraph error for an output that could not be written."""
    return OutputFileError(f"option {option}: cannot write {given!r}: {os_reason(exc)}. Nothing was written there; "
                           f"free some space or choose another place.")


def _check_directory(option: str, given: str, directory: str) -> None:
    d = directory or "."
    mine = os.path.dirname(given) or "."
    shown = mine if os.path.realpath(mine) == os.path.realpath(d) else d  # as the user wrote it, if that is it
    if not os.path.isdir(d):
        raise OutputFileError(f"option {option} names {given!r}, but the directory {shown!r} does not exist; create "
                              f"it first or choose another place.")
    if not os.access(d, os.W_OK | os.X_OK):
        raise OutputFileError(f"option {option} names {given!r}, but the directory {shown!r} is not writable "
                              f"(permission denied or a read-only file system); choose another place.")


def resolve_output(path: str | os.PathLike[str], *, option: str, directory: bool = False) -> Target:
    """Look at an output path before anything is written, and say where the bytes will go.

    Parameters
    ----------
    path : path
    option : str
        The option that names it, for messages.
    directory : bool
        The output is a directory files are written into (created if missing).

    Raises
    ------
    OutputFileError
        A directory (for a file), a missing or unwritable directory, a file
        that may not be written, a block device or socket.

    Examples
    --------
    >>> resolve_output("/dev/null", option="--output").kind
    'device'
    """
    given = os.fspath(path)
    if given == "":
        raise OutputFileError(f"option {option} is empty; give a file name.")
    try:
        st: os.stat_result | None = os.stat(given)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputFileError(f"option {option} names {given!r}, but a part of that path is not a directory.") from None
    except OSError as exc:
        raise OutputFileError(f"option {option}: cannot look at {given!r}: {os_reason(exc)}.") from None
    real = os.path.realpath(given)
    if directory:
        if st is None:  # created with its missing parents: the nearest existing one must be writable
            parent = os.path.dirname(real)
            while parent and not os.path.lexists(parent) and os.path.dirname(parent) != parent:
                parent = os.path.dirname(parent)
            _check_directory(option, given, parent)
        elif not stat.S_ISDIR(st.st_mode):
            raise OutputFileError(f"option {option} needs the directory {given!r}, and a file of that name exists.")
        elif not os.access(given, os.W_OK | os.X_OK):
            raise OutputFileError(f"option {option}: the directory {given!r} is not writable (permission denied or "
                                  f"a read-only file system).")
        return Target(option, given, real, "directory")
    if st is None:
        if given.endswith(os.sep):
            raise OutputFileError(f"option {option} names a directory ({given!r}); give a file name.")
        _check_directory(option, given, os.path.dirname(real))
        return Target(option, given, real, "new")
    if stat.S_ISDIR(st.st_mode):
        raise OutputFileError(f"option {option} names a directory ({given!r}); give a file name.")
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        if not os.access(given, os.W_OK):
            raise OutputFileError(f"option {option}: {given!r} cannot be written (permission denied).")
        return Target(option, given, given, "device")
    if not stat.S_ISREG(st.st_mode):
        what = "a block device" if stat.S_ISBLK(st.st_mode) else \
            "a socket" if stat.S_ISSOCK(st.st_mode) else "not a file"
        raise OutputFileError(f"option {option} names {given!r}, which is {what}; clfeval writes regular files, "
                              f"character devices (such as /dev/null) and FIFOs.")
    if not os.access(real, os.W_OK):
        raise OutputFileError(f"option {option} names {given!r}, which is read-only; clfeval does not replace a file "
                              f"it may not write (make it writable, or choose another name).")
    _check_directory(option, given, os.path.dirname(real))
    return Target(option, given, real, "file", stat.S_IMODE(st.st_mode))


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.fstat(0) if path == "-" else os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _matched(given: str) -> list[str]:
    """The files a glob pattern names (none for anything else, or a pattern the reader will refuse)."""
    if given == "-" or os.path.lexists(given) or not any(ch in given for ch in "*?["):
        return []
    from clfeval.errors import ClfevalError
    from clfeval.io._paths import resolve_path

    try:
        inp = resolve_path(given)
    except ClfevalError:
        try:  # files of several formats, or of no known format: still inputs
            inp = resolve_path(given, input_format="csv")
        except ClfevalError:
            return []
    return [str(s.path) for s in inp.sources] + [a for a, _ in inp.aliases]


def _inside(path: str, directory: str) -> bool:
    try:
        return os.path.commonpath([path, directory]) == directory
    except ValueError:
        return False


def check_paths(inputs: Iterable[tuple[str, str | os.PathLike[str] | None]],
                outputs: Iterable[tuple[str, str | os.PathLike[str] | None] | Target]) -> list[Target]:
    """Resolve every output and refuse one that would destroy an input or another output.

    Parameters
    ----------
    inputs : iterable of (label, path)
        What is read, each with the name shown in messages (``FILE``,
        ``--dev``, ``--archive``); ``None`` paths are skipped; ``-`` is
        standard input. An input may be a directory.
    outputs : iterable of (option, path) or Target
        What is written; ``None`` paths are skipped. Pairs are resolved with
        :func:`resolve_output`. Devices and FIFOs (written through, never
        replaced) conflict with nothing.

    Returns
    -------
    list of Target

    Raises
    ------
    OutputFileError
        An output that is the same file as an input or another output (by
        real path or inode: symbolic and hard links count), that lies inside
        an input directory, or that :func:`resolve_output` refuses.
    """
    ins = []
    for label, p in inputs:
        if p is None:
            continue
        given = os.fspath(p)
        real = None if given == "-" else os.path.realpath(given)
        ins.append((label, given, real, _identity(given), real is not None and os.path.isdir(real)))
        for f in _matched(given):  # a glob pattern: every file it names is an input
            ins.append((f"{label} (the pattern {given!r} names it)", f, os.path.realpath(f), _identity(f), False))
    targets: list[Target] = []
    for item in outputs:
        if isinstance(item, Target):
            t = item
        else:
            option, p = item
            if p is None:
                continue
            t = resolve_output(p, option=option)
        targets.append(t)
        if t.kind == "device":
            continue
        ident = _identity(t.path) if t.kind != "new" else None
        for label, given, real, in_ident, is_dir in ins:
            if (ident is not None and ident == in_ident) or (real is not None and real == t.path):
                how = "" if given == t.given else f" (the same file as {given!r}, through a symbolic or hard link)"
                raise OutputFileError(f"option {t.option} names {t.given!r}, which is the input {label}{how}: "
                                      f"writing it would destroy the input. Choose another name for {t.option}.")
            if is_dir and real is not None and _inside(t.path, real):
                raise OutputFileError(f"option {t.option} names {t.given!r}, which lies inside the input directory "
                                      f"{given!r} ({label}); write outputs outside the data.")
        for u in targets[:-1]:
            if u.kind == "device":
                continue
            if u.path == t.path or (ident is not None and ident == _identity(u.path)):
                how = "" if u.given == t.given else f" ({u.given!r} and {t.given!r} are the same file)"
                raise OutputFileError(f"options {u.option} and {t.option} both name {t.given!r}{how}: each output "
                                      f"needs a place of its own.")
    return targets


# ----------------------------------------------------------------------------
# Temporary files
# ----------------------------------------------------------------------------

_O_TMPFILE = getattr(os, "O_TMPFILE", 0)


def _link(fd: int, directory: str, name: str) -> None:
    """Give the unnamed file open as ``fd`` the name ``directory/name`` (linkat with AT_SYMLINK_FOLLOW)."""
    dfd = os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=dfd, follow_symlinks=True)
    finally:
        os.close(dfd)


class _Temp:
    """A temporary file beside a target: unnamed (``O_TMPFILE``) where possible, else hidden and named."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.directory = os.path.dirname(target.path) or "."
        self.base = os.path.basename(target.path)[:100]
        self.name: str | None = None
        self.fd = self._create()
        try:
            created = stat.S_IMODE(os.fstat(self.fd).st_mode)  # 0666 & ~umask (and the directory's default ACL)
            self.mode = target.mode if target.mode is not None else created
            os.fchmod(self.fd, 0o600)  # private while it is written
        except BaseException:
            self.discard()
            raise
        self.path = self.name if self.name is not None else f"/proc/self/fd/{self.fd}"

    def _create(self) -> int:
        if _O_TMPFILE and os.path.isdir("/proc/self/fd"):
            try:
                return os.open(self.directory, _O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o666)
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                    raise
        fd, self.name = self._named(lambda name: os.open(os.path.join(self.directory, name),
                                                         os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
        return fd

    def _named(self, make: Callable[[str], int | None]) -> tuple[int, str]:
        for _ in range(100):
            name = f".{self.base}.{os.urandom(6).hex()}.tmp"
            try:
                result = make(name)
            except FileExistsError:
                continue
            return (-1 if result is None else result), os.path.join(self.directory, name)
        raise FileExistsError(errno.EEXIST, "no free temporary name", self.directory)  # pragma: no cover

    def publish(self) -> None:
        """Put the written file in place: its final mode, then one link or rename."""
        os.fsync(self.fd)
        os.fchmod(self.fd, self.mode)
        if self.name is None:
            if self.target.kind == "new":
                try:
                    _link(self.fd, os.path.dirname(self.target.path), os.path.basename(self.target.path))
                    self.discard()
                    return
                except FileExistsError:  # created meanwhile: replace it like any other file
                    pass
            _, self.name = self._named(lambda name: _link(self.fd, self.directory, name))
        os.replace(self.name, self.target.path)
        self.name = None
        self.discard()

    def discard(self) -> None:
        """Remove the temporary file (an unnamed one vanishes with its descriptor)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.name is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.name)
            self.name = None


class OutputFiles:
    """Outputs written into temporary files first, then put in place together.

    :meth:`staging` (or :meth:`stage`) writes one output into its temporary
    file; :meth:`publish` renames every staged file into place. Leaving the
    ``with`` block removes whatever was not published, so an error or a signal
    before :meth:`publish` leaves no output at all. An output that goes to a
    character device or FIFO is written through when it is staged.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with OutputFiles() as out:
    ...     out.stage(d / "a.txt", lambda p: pathlib.Path(p).write_text("A"), option="--output")
    ...     before = sorted(x.name for x in d.iterdir())
    ...     out.publish()
    >>> before, (d / "a.txt").read_text()
    ([], 'A')
    """

    def __init__(self) -> None:
        self._temps: list[_Temp] = []

    def __enter__(self) -> OutputFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    @contextlib.contextmanager
    def staging(self, path: str | os.PathLike[str], *, option: str = "--output") -> Iterator[str]:
        """A path to write one output to; kept for :meth:`publish` if the block succeeds, removed otherwise.

        Staging a target again replaces what was staged for it before.
        """
        target = resolve_output(path, option=option)
        self._forget(target.path)
        if target.kind == "device":
            try:
                yield target.path
            except OSError as exc:
                raise write_error(option, target.given, exc) from None
            return
        try:
            temp = _Temp(target)
        except OSError as exc:
            raise write_error(option, target.given, exc) from None
        try:
            yield temp.path
            checkpoint("staged")
        except OSError as exc:
            temp.discard()
            raise write_error(option, target.given, exc) from None
        except BaseException:
            temp.discard()
            raise
        self._temps.append(temp)

    def stage(self, path: str | os.PathLike[str], write: Callable[[str], object], *, option: str = "--output") -> None:
        """Stage one output: ``write(p)`` writes its content to the path ``p``."""
        with self.staging(path, option=option) as p:
            write(p)

    def _forget(self, path: str) -> None:
        for t in [t for t in self._temps if t.target.path == path]:
            t.discard()
            self._temps.remove(t)

    def publish(self) -> None:
        """Put every staged file in place, in the order staged."""
        while self._temps:
            temp = self._temps[0]
            try:
                temp.publish()
            except OSError as exc:
                raise write_error(temp.target.option, temp.target.given, exc) from None
            self._temps.pop(0)

    def discard(self) -> None:
        """Remove every temporary file not yet published."""
        while self._temps:
            self._temps.pop().discard()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, option: str = "--output") -> Iterator[str]:
    """A path to write ``path``'s content to; it becomes ``path`` only if the block succeeds.

    A regular file (new, or replaced keeping its mode; a symbolic link's
    target) is written into a temporary file put in place by one rename at the
    end; a failure, SIGINT or SIGTERM anywhere in the block leaves neither a
    half-written file nor the temporary file behind. A character device or
    FIFO is written through: the block gets ``path`` itself.

    Raises
    ------
    OutputFileError
        Refused by :func:`resolve_output`, or a write failed (a full disk).
    """
    with OutputFiles() as files:
        with files.staging(path, option=option) as tmp:
            yield tmp
        files.publish()


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM, SIGHUP and SIGQUIT back until the block is over, then deliver them.

    For the few system calls that put outputs in place and record a run: a
    signal arriving then takes effect once everything is complete. Only the
    main thread can change signal handlers; elsewhere the block runs as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, _frame: object) -> None:
        pending.append(signum)

    held = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, n)]
    previous = {s: signal.signal(s, hold) for s in held}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
        for s in dict.fromkeys(pending):
            signal.raise_signal(s)


#: The output formats of a result, and the format an output's extension names (text for no extension; any other
#: extension needs the format said).
FORMATS = ("text", "json", "markdown", "html")
EXTENSIONS = {".html": "html", ".htm": "html", ".json": "json", ".md": "markdown", ".markdown": "markdown",
              ".txt": "text"}
#: The extensions in words, as messages and ``--help`` give them.
EXTENSIONS_TEXT = ".json, .md/.markdown, .html/.htm, .txt or none for text"


def _names_nothing(output: str | os.PathLike[str]) -> bool:
    """A device, FIFO or other non-regular file (``/dev/null``): its name says nothing about its content."""
    try:
        return os.path.exists(output) and not os.path.isfile(output)
    except OSError:
        return True


def format_of(output: str | os.PathLike[str] | None) -> str | None:
    """The format an output file's name asks for, or None (no output, an unknown extension, none, or a device,
    FIFO or other non-regular file such as ``/dev/null``, whose name says nothing about its content).

    >>> format_of("out.HTML"), format_of("r.md"), format_of("notes.csv"), format_of(None)
    ('html', 'markdown', None, None)
    """
    if output is None or _names_nothing(output):
        return None
    return EXTENSIONS.get(PurePath(output).suffix.lower())


def output_format(fmt: str | None, output: str | os.PathLike[str] | None, *, option: str = "-o/--output") -> str:
    """The format given, or the one ``output``'s extension names, else text; refused (a UsageError, exit 2) when
    the format given contradicts the extension (text written into ``report.html``), and when none is given and
    the extension names none (``report.csv`` would hold a text report)."""
    from clfeval.core import shown
    from clfeval.errors import UsageError

    named = format_of(output)
    suffix = "" if output is None else PurePath(output).suffix
    if fmt is None:
        if named is None and output is not None and suffix and not _names_nothing(output):
            raise UsageError(f"option {option} {shown(str(output))!r}: the extension {suffix!r} names no "
                             f"output format; the format follows the extension ({EXTENSIONS_TEXT}). Give the "
                             f"output one of those, or say the format with --format (then any name is accepted).")
        return named or "text"
    if named is not None and named != fmt and output is not None:
        raise UsageError(f"--format {fmt} contradicts --output {shown(str(output))!r}, whose extension "
                         f"{suffix!r} means {named}; drop --format (the format follows the extension), "
                         f"or give the output a name that matches it.")
    return fmt


def stdout_error(exc: OSError) -> OutputFileError:
    """The error for a standard output that cannot be written (``/dev/full``, a full disk).

    What could not be written is thrown away, so that nothing tries again at exit.
    """
    import sys

    with contextlib.suppress(Exception):
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    return OutputFileError(f"cannot write to standard output: {os_reason(exc)}. Redirect it elsewhere, or write "
                           f"the result to a file with --output.")
