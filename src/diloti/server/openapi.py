"""The OpenAPI document of the HTTP API (``/openapi.json``), described by the same models that check the bodies.

The routes read their bodies themselves (to refuse an oversized one while it streams in) and return plain
dicts, so :func:`documented` names each route's models in its arguments instead of its signature.

>>> documented(None, media="text/plain")["openapi_extra"]["responses"]["200"]
{'content': {'text/plain': {'schema': {'type': 'string'}}}}
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from diloti.server.bot_api import BOT_MODELS
from diloti.server.event_models import EVENT_MODELS
from diloti.server.messages import CLIENT_MESSAGE, SCHEMA_MODELS, SERVER_MESSAGE, ErrorMessage
from diloti.server.player_models import PLAYER_SCHEMA_MODELS, QUICKPLAY_MODELS
from diloti.server.retry import RETRY_MODELS
from diloti.server.reviews import REVIEW_MODELS

REF = "#/components/schemas/{model}"
JSON = "application/json"
API_DESCRIPTION = """The JSON API of `diloti serve` (docs/PROTOCOL.md). Every error is
`{"type": "error", "code": CODE, "message": TEXT}` with a 4xx or 5xx status.

Live play is on the websocket `/ws`, which OpenAPI cannot describe: its messages are the schemas
`ClientMessage` (client to server) and `ServerMessage` (server to client) below."""


def _ref(model: type[BaseModel] | str) -> dict[str, str]:
    return {"$ref": REF.format(model=model if isinstance(model, str) else model.__name__)}


def documented(reply: type[BaseModel] | None, body: type[BaseModel] | None = None, status: int = 200,
               media: str = JSON) -> dict[str, Any]:
    """Route arguments that describe a route in the OpenAPI document by its models.

    The routes read their bodies themselves (to refuse an oversized one while it streams in)
    and return plain dicts, so the models are named here instead of in the signatures.
    """
    ok: dict[str, Any] = {"content": {media: {"schema": _ref(reply) if reply is not None else {"type": "string"}}}}
    extra: dict[str, Any] = {"responses": {str(status): ok}}
    if body is not None:
        extra["requestBody"] = {"required": True, "content": {JSON: {"schema": _ref(body)}}}
    errors = {"4XX": {"description": "Error (docs/PROTOCOL.md: error codes)",
                      "content": {JSON: {"schema": _ref(ErrorMessage)}}}}
    return {"response_model": None, "responses": errors, "openapi_extra": extra}


def openapi_schema(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document: the routes, and every model (the websocket's too) as a component."""
    schema = get_openapi(title=app.title, version=app.version, description=API_DESCRIPTION, routes=app.routes)
    models = (*SCHEMA_MODELS, *PLAYER_SCHEMA_MODELS, *QUICKPLAY_MODELS, *REVIEW_MODELS, *RETRY_MODELS,
              *BOT_MODELS, *EVENT_MODELS)
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    components: dict[str, Any] = dict(defs.get("$defs", {}))
    adapters: tuple[tuple[str, TypeAdapter[Any]], ...] = (("ClientMessage", CLIENT_MESSAGE),
                                                           ("ServerMessage", SERVER_MESSAGE))
    for name, adapter in adapters:
        union = adapter.json_schema(ref_template=REF)
        components.update(union.pop("$defs", {}))
        components[name] = union
    schema.setdefault("components", {}).setdefault("schemas", {}).update(components)
    return schema
