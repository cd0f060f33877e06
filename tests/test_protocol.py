"""The protocol's typed models: strict reading of client input, docs/PROTOCOL.md checked against the
models (message tables, body fields, every JSON example), the OpenAPI document, what the server really
sends, and the cap on websockets per address."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from diloti.games.diloti.options import Options
from diloti.server import create_app
from diloti.server.event_models import (
    Arena,
    ArenaJoined,
    ArenaList,
    ArenaMine,
    DailyBoard,
    DailyField,
    DailyFieldReply,
    DailyHistory,
    DailyInfo,
    DailyStart,
    DailyStarted,
    NewArena,
)
from diloti.server.game_models import OptionsBody
from diloti.server.limits import Limits
from diloti.server.messages import (
    CLIENT_MODELS,
    SERVER_MESSAGE,
    SERVER_MODELS,
    Claimed,
    Health,
    Info,
    JoinTable,
    Lobby,
    NewKontsinaTable,
    NewTable,
    Replay,
    TableSummary,
)
from diloti.server.player_models import (
    Identity,
    Leaderboard,
    Login,
    Me,
    NewPlayer,
    Profile,
    QuickPlay,
    QuickPlayTicket,
    Recover,
    SetPassword,
)
from diloti.server.protocol import JOIN_CODES, NEW_TABLE_CODES, ProtocolError, read_body, read_message
from diloti.server.reviews import ReviewStatus

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the document
def section(title: str, level: str = "###") -> str:
    """The text under a heading that starts with ``title`` (up to the next heading of that level or above)."""
    m = re.search(rf"^{level} {re.escape(title)}.*?$(.*?)(?=^#{{1,{len(level)}}} |\Z)", DOC, re.MULTILINE | re.DOTALL)
    assert m, f"no section {title!r} in docs/PROTOCOL.md"
    return m.group(1)


def table_rows(text: str, first: str) -> list[list[str]]:
    """The rows of the first Markdown table in ``text`` whose first header cell is ``first``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first:
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise AssertionError(f"no table headed {first!r}")


def names(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def json_blocks(text: str) -> list[str]:
    return re.findall(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields) - {"type"}


def test_client_message_table_matches_the_models() -> None:
    rows = table_rows(section("Client → server"), "type")
    documented = {names(r[0])[0]: r for r in rows}
    assert list(documented) == list(CLIENT_MODELS), "message types in the doc and in CLIENT_MODELS differ"
    for kind, (_, cell, model_cell, _) in documented.items():
        model = CLIENT_MODELS[kind]
        assert model_cell == f"`{model.__name__}`", kind
        assert set(names(cell)) == fields(model), kind
        optional = set(re.findall(r"optional `([a-z_]+)`", cell))
        required = {f for f, info in model.model_fields.items() if info.is_required()} - {"type"}
        assert optional == fields(model) - required, kind


def test_server_message_table_matches_the_models() -> None:
    rows = table_rows(section("Server → client"), "type")
    documented = {names(r[0])[0]: r for r in rows}
    assert set(documented) == set(SERVER_MODELS)
    for kind, (_, cell, model_cell) in documented.items():
        model = SERVER_MODELS[kind]
        assert model_cell == f"`{model.__name__}`", kind
        assert names(cell) and set(names(cell)) == fields(model), (kind, set(names(cell)) ^ fields(model))
        # The server sends every field: none may be left out.
        assert all(info.is_required() for info in model.model_fields.values()), kind


@pytest.mark.parametrize(("title", "model"), [("`POST /api/tables` ", NewTable),
                                              ("`POST /api/tables/{id}/join`", JoinTable)])
def test_body_field_tables_match_the_models(title: str, model: type[BaseModel]) -> None:
    rows = table_rows(section(title), "field")
    documented = {names(r[0])[0]: r for r in rows}
    assert set(documented) == set(model.model_fields), set(documented) ^ set(model.model_fields)
    for name, row in documented.items():
        assert (row[2] == "required") == model.model_fields[name].is_required(), name


def test_options_model_mirrors_the_engines_options() -> None:
    engine = {f.name: f.default for f in dataclasses.fields(Options)}
    assert {name: info.default for name, info in OptionsBody.model_fields.items()} == engine
    assert OptionsBody().model_dump() == Options().to_dict()


# Which model each JSON example of a section is, in order (websocket examples go by their "type").
HTTP_EXAMPLES: dict[str, list[type[BaseModel]]] = {
    "`GET /api/info`": [Info],
    "`POST /api/tables` ": [NewTable, Claimed, NewKontsinaTable],
    "`GET /api/tables` ": [Lobby],
    "`GET /api/tables/{id}` ": [TableSummary],
    "`POST /api/tables/{id}/join`": [JoinTable, Claimed],
    "`GET /api/tables/{id}/replay`": [Replay],
    "`POST /api/players` ": [NewPlayer, Identity],
    "`POST /api/players/recover`": [Recover],
    "`POST /api/login`": [Login],
    "`GET /api/me`": [Me],
    "`PUT /api/me/password`": [SetPassword],
    "`GET /api/players/{id}` ": [Profile],
    "`GET /api/leaderboard?": [Leaderboard],
    "Quick play: `POST /api/quickplay`": [QuickPlay, QuickPlayTicket],
    "`POST /api/quickplay/{ticket}/poll`": [QuickPlayTicket],
    "`POST /api/tables/{id}/review`": [ReviewStatus],
    "`GET /api/daily` ": [DailyInfo],
    "`POST /api/daily` ": [DailyStart, DailyStarted],
    "`GET /api/daily/leaderboard?": [DailyBoard],
    "`POST /api/daily/field`": [DailyField, DailyFieldReply],
    "`GET /api/players/{id}/daily`": [DailyHistory],
    "`GET /api/arenas` ": [ArenaList],
    "`POST /api/arenas` ": [NewArena],
    "`GET /api/arenas/{id}` ": [Arena],
    "`GET /api/arenas/{id}/me`": [ArenaMine],
    "`POST /api/arenas/{id}/join`": [ArenaJoined],
}
BODIES = (NewTable, NewKontsinaTable, JoinTable, NewPlayer, Recover, Login, SetPassword, QuickPlay, DailyStart,
          DailyField, NewArena)


def test_every_json_example_parses_with_its_model() -> None:
    checked = 0
    for title, models in HTTP_EXAMPLES.items():
        blocks = json_blocks(section(title))
        assert len(blocks) == len(models), (title, len(blocks))
        for text, model in zip(blocks, models, strict=True):
            model.model_validate_json(text)
            if model in BODIES:
                read_body(model, json.loads(text))  # the server's own path, with its error codes
            checked += 1
    client = json_blocks(section("Client → server"))
    assert len(client) == 1
    lines = client[0].strip().splitlines()
    assert {read_message(line).type for line in lines} == set(CLIENT_MODELS)  # one example of each, all good
    checked += 1
    seen = set()
    for text in json_blocks(section("Server → client")):
        seen.add(SERVER_MESSAGE.validate_json(text).type)
        checked += 1
    assert seen == set(SERVER_MODELS), "a server message has no example"
    assert checked == len(json_blocks(DOC)), "a JSON example in docs/PROTOCOL.md is not checked"


def test_every_error_code_the_server_sends_is_documented() -> None:
    documented = set(names(section("Error codes")))
    sent = {"bad_message", "unknown_type", *NEW_TABLE_CODES.values(), *JOIN_CODES.values()}
    for path in (ROOT / "src" / "diloti" / "server").glob("*.py"):
        sent |= set(re.findall(r'(?:ProtocolError|error)\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert {"too_many_connections", "rate_limited", "stale", "bad_json"} <= sent
    assert sent <= documented, sorted(sent - documented)


# ------------------------------------------------------------------ strict reading
@pytest.mark.parametrize(("raw", "code", "words"), [
    ('{"type": "move", "move": "7H", "ply": "3"}', "bad_message", "'ply'"),
    ('{"type": "move", "move": "7H", "ply": true}', "bad_message", "'ply'"),
    ('{"type": "move", "move": "7H", "ply": 3.0}', "bad_message", "'ply'"),
    ('{"type": "move", "move": "7H", "ply": -1}', "bad_message", "at least 0"),
    ('{"type": "move", "move": ["7H"]}', "bad_message", "text"),
    ('{"type": "move", "move": "7H", "extra": 1}', "bad_message", "unknown field 'extra'"),
    ('{"type": "sync", "table": "x"}', "bad_message", "unknown field 'table'"),
    ('{"type": "hello", "table": "t"}', "bad_message", "needs a 'token' field"),
    ('{"type": "hello", "table": "t", "token": null}', "bad_message", "'token'"),
    ('{"type": "ping", "id": false}', "bad_message", "'id'"),
    ('{"type": "ping", "id": "5"}', "bad_message", "'id'"),
    ('{"type": "dance"}', "unknown_type",
     "unknown message type 'dance' (known: hello, watch, move, hint, choices, sync, ping, chat, resign, leave, "
     "hand_over, rematch, back, claim, arena)"),
    ('{"type": null}', "bad_message", "'type'"),
    ('{"type": "hello", "table": "' + "t" * 201 + '", "token": "x"}', "bad_message", "too long"),
    ("[" * 5000 + "]" * 5000, "too_large", "4096"),
    ("[" * 2000 + "]" * 2000, "bad_json", "nested"),
])
def test_client_messages_are_read_strictly(raw: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as info:
        read_message(raw)
    assert info.value.code == code and words in str(info.value), str(info.value)
    assert "http" not in str(info.value) and "pydantic" not in str(info.value).lower()


def test_good_client_messages_become_their_models() -> None:
    assert read_message('{"type": "move", "move": "7H", "ply": null}').ply is None  # type: ignore[union-attr]
    assert read_message(b'{"type": "ping"}').type == "ping"
    assert read_message('{"type": "hello", "table": "t", "token": "k"}').table == "t"  # type: ignore[union-attr]


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"players": "4"}, "bad_players", "players '4'"),
    ({"players": 4.0}, "bad_players", "players 4.0"),
    ({"players": True}, "bad_players", "players True"),
    ({"seat": True}, "bad_seat", "seat True"),
    ({"seat": "0"}, "bad_seat", "seat '0'"),
    ({"private": 1}, "bad_request", "private 1"),
    ({"seed": True}, "bad_seed", "seed True"),
    ({"seed": 2**63}, "bad_seed", "seed"),
    ({"options": {"target": "61"}}, "bad_options", "options.target '61'"),
    ({"options": {"target": True}}, "bad_options", "options.target True"),
    ({"options": {"soy": 1}}, "bad_options", "options.soy 1"),
    ({"options": {"soy": True, "x": 1}}, "bad_options", "unknown field 'x' in options"),
    ({"options": {"face_card_redeal": "sometimes"}}, "bad_options", "'off', 'first_deal' or 'any_deal'"),
    ({"seats": [{"kind": "human"}, {"kind": "bot", "level": 3}]}, "bad_level", "seats[1].level 3"),
    ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "random", "x": 1}]}, "bad_seats", "seats[1]"),
    ({"seats": [{"kind": "human"}] * 5}, "bad_seats", "at most 4 entries"),
    ({"seats": {"kind": "human"}}, "bad_seats", "a list"),
    ({"name": ["Ann"]}, "bad_name", "name ['Ann']"),
    ({"name": "A" * 201}, "bad_name", "at most 200"),
    ({"admin": True}, "bad_request", "unknown field 'admin'"),
])
def test_new_table_bodies_are_read_strictly(body: dict[str, Any], code: str, words: str) -> None:
    body = {"name": "Ann", **body}
    with pytest.raises(ProtocolError) as info:
        read_body(NewTable, body)
    assert info.value.code == code and words in str(info.value), str(info.value)
    assert "http" not in str(info.value) and "pydantic" not in str(info.value).lower()


def test_bodies_pass_on_only_the_fields_given() -> None:
    assert read_body(NewTable, {"name": "Ann"}) == {"name": "Ann"}
    got = read_body(NewTable, {"name": "Ann", "seed": None, "options": {"soy": True},
                               "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    assert got == {"name": "Ann", "options": {"soy": True},
                   "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}
    assert read_body(JoinTable, {"name": "Bob", "seat": 1}) == {"name": "Bob", "seat": 1}
    for bad in ([1], "x", None, 5):
        with pytest.raises(ProtocolError, match="must be a JSON object"):
            read_body(JoinTable, bad)


def test_server_models_refuse_what_the_server_never_sends() -> None:
    with pytest.raises(ValidationError):
        SERVER_MESSAGE.validate_json('{"type": "pong", "id": 1, "extra": true}')
    with pytest.raises(ValidationError):
        SERVER_MESSAGE.validate_json('{"type": "pong"}')
    assert Health.model_validate({"ok": True}).ok


# ------------------------------------------------------------------ the server
def client_for(tmp_path: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", allow_seed=True, **kw))


def test_http_over_the_wire(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        r = client.post("/api/tables", json={"name": "Ann", "players": "2"})
        assert r.status_code == 400 and r.json() == {"type": "error", "code": "bad_players",
                                                     "message": "invalid players '2': expected an integer"}
        r = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert r.status_code == 400 and r.json()["code"] == "bad_level"
        r = client.post("/api/tables", json={"name": "Ann", "private": 0})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"
        t = client.post("/api/tables", json={"name": "Ann", "seat": None, "seed": None})
        assert t.status_code == 201 and Claimed.model_validate(t.json()).seat == 0
        r = client.post(f"/api/tables/{t.json()['table']}/join", json={"name": "Bob", "seat": True})
        assert r.status_code == 400 and r.json()["code"] == "bad_seat"
        r = client.post(f"/api/tables/{t.json()['table']}/join", json={"name": "Bob", "seat": 1.0})
        assert r.status_code == 400 and r.json()["code"] == "bad_seat"
        assert client.get(f"/api/tables/{t.json()['table']}").json()["free"] == [1]


def test_openapi_describes_the_http_api(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        r = client.get("/openapi.json")
        assert r.status_code == 200
        doc = r.json()
        assert client.get("/api/docs").status_code == 404 and client.get("/docs").status_code == 404
    schemas = doc["components"]["schemas"]
    ops = doc["paths"]

    def ref(op: dict[str, Any], status: str) -> str:
        return str(op["responses"][status]["content"]["application/json"]["schema"]["$ref"]).rsplit("/", 1)[1]

    create = ops["/api/tables"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/NewTable")
    assert ref(create, "201") == "Claimed" and ref(create, "4XX") == "ErrorMessage"
    join = ops["/api/tables/{table_id}/join"]["post"]
    assert join["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/JoinTable")
    assert ref(ops["/api/info"]["get"], "200") == "Info"
    assert ref(ops["/api/tables"]["get"], "200") == "Lobby"
    assert ref(ops["/api/tables/{table_id}"]["get"], "200") == "TableSummary"
    assert ref(ops["/api/tables/{table_id}/replay"]["get"], "200") == "Replay"
    assert ref(ops["/api/players"]["post"], "201") == "Identity" and ref(ops["/api/me"]["patch"], "200") == "Me"
    assert ref(ops["/api/players/{player_id}"]["get"], "200") == "Profile"
    assert ref(ops["/api/leaderboard"]["get"], "200") == "Leaderboard"
    assert "text/plain" in ops["/api/tables/{table_id}/record"]["get"]["responses"]["200"]["content"]
    assert "/" not in ops and "/ws" not in ops
    assert not any("422" in op["responses"] for path in ops.values() for op in path.values())
    new = schemas["NewTable"]
    assert new["additionalProperties"] is False and new["required"] == ["name"]
    assert new["properties"]["players"]["enum"] == [2, 4]
    assert schemas["OptionsBody"]["properties"]["target"]["maximum"] == 10_000
    # Every reference resolves, and the websocket's messages are there too.
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(doc)))
    assert refs <= set(schemas), refs - set(schemas)
    assert set(schemas["ClientMessage"]["discriminator"]["mapping"]) == set(CLIENT_MODELS)
    assert set(schemas["ServerMessage"]["discriminator"]["mapping"]) == set(SERVER_MODELS)


def test_what_the_server_sends_fits_the_models(tmp_path: Path) -> None:
    """A whole game against a computer: every message, and every HTTP reply, validates with its model."""
    with client_for(tmp_path, rate=1e6, burst=1e6) as client:
        Info.model_validate(client.get("/api/info").json())
        t = client.post("/api/tables", json={"name": "Ann", "options": {"target": 5}, "seed": 4,
                                             "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()
        waiting = client.post("/api/tables", json={"name": "Ann", "players": 4}).json()
        Lobby.model_validate(client.get("/api/tables").json())
        Claimed.model_validate(client.post(f"/api/tables/{waiting['table']}/join", json={"name": "Bob"}).json())
        seen: set[str] = set()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "ping"})
            ws.send_json({"type": "ping", "id": 3})
            ws.send_json({"type": "sync"})
            ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
            hinted = False
            while "game_over" not in seen:
                text = ws.receive_text()
                msg = SERVER_MESSAGE.validate_json(text)
                seen.add(msg.type)
                if msg.type == "state" and msg.your_turn:
                    if not hinted:
                        ws.send_json({"type": "hint"})
                        hinted = True
                    ws.send_json({"type": "move", "move": msg.legal[0].move, "ply": msg.ply})
        assert seen >= {"pong", "error", "welcome", "table", "state", "played", "round_over", "game_over", "hint"}
        TableSummary.model_validate(client.get(f"/api/tables/{t['table']}").json())
        Lobby.model_validate(client.get("/api/tables?status=over").json())
        Replay.model_validate(client.get(f"/api/tables/{t['table']}/replay").json())
        Health.model_validate(client.get("/healthz").json())


# ------------------------------------------------------------------ websockets per address
def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    with client_for(tmp_path, limits=Limits(connections=2)) as client:
        assert client.get("/api/info").json()["limits"]["connections"] == 2
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            for ws in (a, b):
                ws.send_json({"type": "ping", "id": 1})
                assert ws.receive_json() == {"type": "pong", "id": 1}
            with client.websocket_connect("/ws") as c:
                msg = c.receive_json()
                assert msg["type"] == "error" and msg["code"] == "too_many_connections", msg
                assert "limit 2" in msg["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.receive_json()
                assert closed.value.code == 1008 and closed.value.reason == "too_many_connections"
            a.send_json({"type": "ping", "id": 2})  # the others carry on
            assert a.receive_json() == {"type": "pong", "id": 2}
        # Closed connections give their places back.
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            for ws in (a, b):
                ws.send_json({"type": "ping", "id": 4})
                assert ws.receive_json() == {"type": "pong", "id": 4}
        assert client.app.state.limiter.open == {}  # type: ignore[attr-defined]


def test_limits_refuse_a_bad_connection_cap() -> None:
    for bad in (0, -1, True, "20"):
        with pytest.raises(ValueError, match="connections"):
            Limits(connections=bad)  # type: ignore[arg-type]
