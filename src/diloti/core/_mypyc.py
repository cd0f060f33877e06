"""mypyc's class marker for the compiled core, with a no-op in its place at run time.

The type checker (and so mypyc, which reads the code through it) sees ``mypy_extensions.mypyc_attr``;
a running program, compiled or pure, calls the no-op below, so the core imports only the standard
library. This module itself is never compiled: mypyc turns a branch the type checker deems unreachable
(the ``else`` below) into an error.

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
    def mypyc_attr(*attrs, **kwattrs):
        """The run-time stand-in of ``mypy_extensions.mypyc_attr``: returns the class unchanged."""
        return lambda cls: cls

__all__ = ["mypyc_attr"]
