"""The names people sit under: a player's or a guest's, never a computer's (issue 27: the table and its chat
must tell who is who)."""

from __future__ import annotations

from diloti.ai import MEASUREMENT_LEVELS
from diloti.server.protocol import ProtocolError, clean_name
from diloti.store.players import name_key

__all__ = ["player_name"]

# Names the page gives the computer (English and Greek), by their keys: no person may sit under them.
_COMPUTER = tuple(name_key(word) for word in ("computer", "υπολογιστ"))  # a name starting so
_COMPUTER_WORDS = {name_key("bot"), *MEASUREMENT_LEVELS}  # a name whose first word is one of these


def player_name(raw: object) -> tuple[str, str]:
    """A name a person may sit under (a player's, or a guest's) and its key: the rules of
    :func:`~diloti.server.protocol.clean_name`, and not a computer's: a level's name (``expert``,
    ``master:seconds=2``), "computer", "υπολογιστής" or "bot", in any case or look-alike letters, alone or leading
    the name, are reserved.

    >>> player_name("Ελένη")
    ('Ελένη', 'eλenh')
    >>> for bad in ("computer (expert)", "EXPERT", "master:seconds=2", "Υπολογιστής", "bot 2"):
    ...     try:
    ...         player_name(bad)
    ...     except ProtocolError as exc:
    ...         print(exc.code)
    bad_name
    bad_name
    bad_name
    bad_name
    bad_name
    """
    name = clean_name(raw)
    key = name_key(name)
    head = key.partition(":")[0].strip()
    words = key.replace("(", " ").replace("·", " ").split()
    if head in MEASUREMENT_LEVELS or key.startswith(_COMPUTER) or (words and words[0] in _COMPUTER_WORDS):
        raise ProtocolError("bad_name", f"invalid name {name!r}: that is the name of a computer level")
    return name, key
