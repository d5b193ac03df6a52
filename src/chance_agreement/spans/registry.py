"""One shape for every registry of the package: ``register``, ``get``, ``names``.

A registry holds named plug-ins of one kind (instances of one base class, each with a ``name``):
the two-rater coefficients (``reliability.table_coefficients``), the several-rater coefficients
(``reliability.rater_coefficients``) and the file readers (``spans.readers``). The package root
exports each registry object (``chance_agreement.two_rater_coefficients``, ...), so a new plug-in
is one class plus one ``register(Instance())`` call, and every reader of the registry (reports,
the command line, the metrics) sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["Registry"]


class Registry:
    """Hold named plug-ins: instances of ``base``, the built-in ones first.

    The package root exports four registries of this shape: ``random_models``,
    ``two_rater_coefficients``, ``several_rater_coefficients`` and ``file_readers``.

    Parameters
    ----------
    kind : str
        What one entry is, for the messages ("coefficient", "reader").
    base : type
        The class every entry is an instance of.
    built_in : callable
        ``built_in() -> iterable of entries``: the package's own entries, in order, read on every
        use (so a test may change where they come from); they cannot be unregistered.

    See Also
    --------
    RandomModel : What ``random_models`` holds.

    Examples
    --------
    >>> class Toy:
    ...     def __init__(self, name):
    ...         self.name = name
    >>> toys = Registry("toy", Toy, lambda: [Toy("a")])
    >>> toys.register(Toy("b")).name
    'b'
    >>> toys.names()
    ('a', 'b')
    >>> toys.get("a").name
    'a'
    >>> toys
    <Registry of Toy (toy): a, b>
    """

    def __init__(self, kind: str, base: type, built_in: Callable[[], Iterable] = tuple):
        self.kind, self.base, self._built_in = kind, base, built_in
        self._added: dict[str, object] = {}

    def _entries(self) -> dict:
        entries = {entry.name: entry for entry in self._built_in()}
        for name, entry in self._added.items():
            entries.setdefault(name, entry)
        return entries

    def register(self, entry):
        """Make ``entry`` available by its name; returns it.

        Raises
        ------
        TypeError
            If ``entry`` is not an instance of the registry's base class with a non-empty name.
        ValueError
            If an entry of another class is already registered under that name.
        """
        name = getattr(entry, "name", None)
        if not isinstance(entry, self.base) or not isinstance(name, str) or not name:
            raise TypeError(f"register takes a {self.base.__name__} instance with a non-empty name, got {entry!r}")
        known = self._entries()
        if name in known and not self._same(known[name], entry):
            raise ValueError(f"a different {self.kind} is already registered as {name!r}")
        if name not in {built.name for built in self._built_in()}:
            self._added[name] = entry
        return entry

    def _same(self, old, new) -> bool:
        """Equal entries, or two instances of one subclass (a plug-in class registered again)."""
        return old == new or (type(old) is type(new) and type(new) is not self.base)

    def unregister(self, name: str) -> None:
        """Forget a registered entry (the built-in ones stay).

        Raises
        ------
        ValueError
            If ``name`` is a built-in entry.
        """
        if name in {entry.name for entry in self._built_in()}:
            raise ValueError(f"the built-in {self.kind} {name!r} cannot be unregistered")
        self._added.pop(name, None)

    def names(self) -> tuple[str, ...]:
        """The registered names, the built-in ones first, in registration order."""
        return tuple(self._entries())

    def get(self, name):
        """The entry registered as ``name`` (an instance of the base class is returned as it is).

        Raises
        ------
        ValueError
            If nothing is registered as ``name``, naming what is.
        """
        if isinstance(name, self.base):
            return name
        entries = self._entries()
        if not isinstance(name, str) or name not in entries:
            raise ValueError(f"{self.kind} must be one of {list(entries)}, got {name!r}")
        return entries[name]

    def __repr__(self) -> str:
        return f"<Registry of {self.base.__name__} ({self.kind}): {', '.join(self.names())}>"

    def entries(self) -> dict:
        """``{name: entry}``, in the order of ``names``."""
        return self._entries()
