"""Output files written whole or not at all.

Every file the package writes (the command line's reports, tables and figures, the HTML report,
model cards and Eval Results; the Hub Space files are staged, see ``hub_export``) goes through
``write_file``: the content goes to a temporary file in the target's own folder, which then
replaces the target in one ``os.replace``. A full disk, a file-size limit or an interrupt leaves
the previous file as it was and no partial file behind, and the error names the path written.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

Content = str | bytes | Callable


def temporary_name(target: Path) -> Path:
    """A fresh hidden name beside ``target`` for its content in the making (``.NAME.<random>.tmp``)."""
    return target.with_name(f".{target.name[:100]}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def write_file(path, content: Content) -> Path:
    """Write ``content`` to ``path`` whole or not at all (see the module docstring).

    Parameters
    ----------
    path : str or Path
        The file to write (its folder must exist).
    content : str, bytes or callable
        Text (written as UTF-8), bytes, or a function given the temporary file's path that writes
        it there (a figure's ``savefig``, a copy).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    OSError
        The file could not be written (its ``filename`` is ``path``); the previous file, if any, is
        unchanged and no temporary file is left.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "report.md"
    >>> write_file(target, "# one\\n").read_text()
    '# one\\n'
    >>> _ = write_file(target, lambda temporary: temporary.write_bytes(b"# two\\n"))
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('# two\\n', ['report.md'])
    """
    target = Path(path)
    temporary = temporary_name(target)
    try:
        with open(temporary, "xb") as handle:  # created with the usual permissions, as the target would be
            if not callable(content):
                handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        if callable(content):
            content(temporary)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise OSError(error.errno, f"cannot write ({error.strerror or error}); the previous file, if any, is "
                                   f"unchanged", str(target)) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


__all__ = ["temporary_name", "write_file"]
