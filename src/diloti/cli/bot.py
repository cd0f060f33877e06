"""``diloti bot``: play a bot account's games on a server (the Bot API's reference client, docs/BOTS.md)."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from diloti.ai import UnknownLevelError, make_player
from diloti.cli import CliError
from diloti.cli.common import one_line_errors, positive_int


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "bot", help="play a bot account's games on a server (the Bot API's reference client)",
        description="Play the games of a bot account on a Diloti server with a computer player: a level, or an "
                    "outside player by its import path, package.module:Name[:KEY=VALUE,...], as 'diloti "
                    "tournament' takes them (its choose(view) gets the same view a local player gets). Accepts "
                    "the challenges the filters let through and declines the others, plays every game the "
                    "account starts, reconnects after a lost connection or a server restart, and logs each "
                    "game. docs/BOTS.md: making the account and its token, the protocol, the limits.",
    ))
    p.add_argument("--server", required=True, metavar="URL", action="append",
                   help="the server, e.g. http://127.0.0.1:8000; given again for each process of one service, the "
                        "client moves to the next when one does not answer")
    p.add_argument("--token-file", required=True, type=Path, metavar="F",
                   help="a file holding the bot's token (dlb_...): kept out of the command line and its history")
    p.add_argument("--player", required=True, metavar="SPEC",
                   help="the player: a level (expert, master:seconds=2) or package.module:Name[:KEY=VALUE,...]")
    p.add_argument("--accept-games", default="", metavar="GAMES",
                   help="accept challenges to these games only (comma-separated; default: any)")
    p.add_argument("--accept-from", choices=["any", "humans", "bots"], default="any",
                   help="accept challenges from people, bots or any (default any)")
    p.add_argument("--accept-rated", choices=["any", "rated", "casual"], default="any",
                   help="accept rated games, casual ones or any (default any)")
    p.add_argument("--accept-players", default="", metavar="NAMES",
                   help="accept challenges from these players only (comma-separated names; default: anyone)")
    p.add_argument("--challenge", default=None, metavar="PLAYER",
                   help="challenge this player or bot at the start and after each game")
    p.add_argument("--challenge-body", default="{}", metavar="JSON",
                   help="the challenge's game as JSON, e.g. {\"game\": \"xeri\", \"rated\": false} (default: a "
                        "rated Diloti game)")
    p.add_argument("--games", type=positive_int, default=None, metavar="N", help="stop after N games (default: never)")
    p.add_argument("--log-dir", type=Path, default=None, metavar="DIR",
                   help="write each game's stream messages to DIR/TABLE.ndjson")
    p.add_argument("--verbose", action="store_true", help="log reconnections and refused moves")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from diloti.cli.bot_client import BotClient, Filters

    try:
        token = args.token_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise CliError(f"cannot read --token-file {str(args.token_file)!r}: {exc.strerror}") from None
    if not token.startswith("dlb_") or len(token) > 200 or any(c.isspace() for c in token):
        raise CliError(f"invalid --token-file {str(args.token_file)!r}: expected one bot token (dlb_...)")
    try:
        make_player(args.player, seed=0, outside=True)
    except UnknownLevelError as exc:
        raise CliError(f"invalid --player: {exc}") from None
    try:
        body: Any = json.loads(args.challenge_body)
    except json.JSONDecodeError as exc:
        raise CliError(f"invalid --challenge-body: {exc.msg}") from None
    if not isinstance(body, dict):
        raise CliError("invalid --challenge-body: expected a JSON object")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(asctime)s %(message)s")
    filters = Filters(tuple(g for g in args.accept_games.split(",") if g), args.accept_from, args.accept_rated,
                      tuple(n.strip() for n in args.accept_players.split(",") if n.strip()))
    try:
        client = BotClient(args.server, token, args.player, filters, log_dir=args.log_dir, challenge=args.challenge,
                           challenge_body=body, max_games=args.games or 0, say=lambda s: print(s, flush=True))
    except ValueError as exc:
        raise CliError(f"invalid --server: {exc}") from None
    signal.signal(signal.SIGTERM, lambda *_: client.stop())
    try:
        played = client.run()
    except KeyboardInterrupt:
        client.stop()
        return 130
    print(f"{played} games played", file=sys.stderr)
    return 0
