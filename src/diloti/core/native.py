"""mypyc's class markers, for the modules compiled with mypyc (setup.py), and no-ops when run as Python.

mypyc compiles a class to a *native* class (a C extension type: fast attributes, no ``__dict__``, no
``inspect.signature``, no subclass in interpreted code) unless told otherwise with
``mypy_extensions.mypyc_attr``. The core imports only the standard library, so the real marker is imported
only for the type checker, which is what mypyc reads; at run time the class is left as it is.

>>> @mypyc_attr(native_class=False)
... class Plain:
...     pass
>>> Plain.__name__
'Plain'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*_args: object, **_settings: object) -> object:
        """``mypy_extensions.mypyc_attr`` when run as Python: the class unchanged."""
        return lambda cls: cls

__all__ = ["mypyc_attr"]
