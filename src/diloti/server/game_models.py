"""The games' parts of the protocol's models: each game's options as a request or reply carries them, and each
game's score breakdown of a round (Diloti, Xeri, Kontsina). Strict like every model of
:mod:`diloti.server.messages`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from diloti.core.rule_options import MAX_TARGET
from diloti.games.diloti.options import Options
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.games.xeri.rules import XeriOptions
from diloti.server.model_base import Strict


def _help(name: str) -> str:
    return Options.help(name)


class OptionsBody(Strict):
    """House-rule options; any subset (the others take their defaults).

    Mirrors :class:`diloti.games.diloti.options.Options`.
    """

    target: Annotated[int, Field(ge=1, le=MAX_TARGET, description=_help("target"))] = 61
    dealer_sees_bottom: Annotated[bool, Field(description=_help("dealer_sees_bottom"))] = False
    face_card_redeal: Annotated[Literal["off", "first_deal", "any_deal"],
                                Field(description=_help("face_card_redeal"))] = "off"
    three_faces_stay: Annotated[bool, Field(description=_help("three_faces_stay"))] = False
    any_rank_redeal: Annotated[bool, Field(description=_help("any_rank_redeal"))] = False
    forced_capture: Annotated[bool, Field(description=_help("forced_capture"))] = False
    liberal_groups: Annotated[bool, Field(description=_help("liberal_groups"))] = False
    liberal_raise: Annotated[bool, Field(description=_help("liberal_raise"))] = False
    liberal_capture: Annotated[bool, Field(description=_help("liberal_capture"))] = False
    soy: Annotated[bool, Field(description=_help("soy"))] = False
    self_raise: Annotated[bool, Field(description=_help("self_raise"))] = False
    no_xeri_last_card: Annotated[bool, Field(description=_help("no_xeri_last_card"))] = False
    xeri_first_card: Annotated[bool, Field(description=_help("xeri_first_card"))] = False


class XeriOptionsBody(Strict):
    """Xeri's options (docs/RULES-XERI.md); any subset. Mirrors :class:`diloti.games.xeri.rules.XeriOptions`."""

    xeri_jack_double: Annotated[bool, Field(description=XeriOptions.help("xeri_jack_double"))] = False
    game_by_points: Annotated[bool, Field(description=XeriOptions.help("game_by_points"))] = False
    target: Annotated[int, Field(ge=1, le=MAX_TARGET, description=XeriOptions.help("target"))] = 101
    hands: Annotated[int, Field(ge=1, le=1000, description=XeriOptions.help("hands"))] = 10
    no_xeri_last_card: Annotated[bool, Field(description=XeriOptions.help("no_xeri_last_card"))] = False
    pile_any_pair_redeal: Annotated[bool, Field(description=XeriOptions.help("pile_any_pair_redeal"))] = False
    partnerships: Annotated[bool, Field(description=XeriOptions.help("partnerships"))] = False


class KontsinaOptionsBody(Strict):
    """Kontsina's options (docs/RULES-KONTSINA.md); any subset. Mirrors
    :class:`diloti.games.kontsina.rules.KontsinaOptions`."""

    target: Annotated[int, Field(ge=1, le=MAX_TARGET, description=KontsinaOptions.help("target"))] = 21
    forced_capture: Annotated[bool, Field(description=KontsinaOptions.help("forced_capture"))] = False
    partnerships: Annotated[bool, Field(description=KontsinaOptions.help("partnerships"))] = False


class SideScore(Strict):
    """One side's round score with its breakdown (RULES.md); ``total`` includes 10 a xeri."""

    cards: int
    cards_points: int
    aces: int
    ten_of_diamonds: int
    two_of_clubs: int
    xeri: int
    total: int


class XeriSideScore(Strict):
    """One side's hand score in Xeri (RULES-XERI.md section 8)."""

    cards: int
    cards_points: int
    honours: int
    ten_of_diamonds: int
    two_of_clubs: int
    xeri: int
    jack_xeri: int
    xeri_points: int
    total: int


class KontsinaSideScore(Strict):
    """One side's hand score in Kontsina (RULES-KONTSINA.md section 7)."""

    cards: int
    cards_points: int
    clubs: int
    clubs_points: int
    two_of_clubs: int
    ten_of_diamonds: int
    total: int


AnySideScore = SideScore | XeriSideScore | KontsinaSideScore
