"""The HTTP routes of players, groups and ledgers (``docs/web.md``, ``docs/ledger.md``).

* ``POST /api/players`` ``{"name"}`` → 201 ``{"player", "key", "name"}``
* ``GET``/``PATCH``/``DELETE /api/players/me`` (``Authorization: Bearer KEY``)
* ``POST /api/players/me/devices`` → a device code; ``POST /api/players/claim`` ``{"code"}``
  → a key of that player for this device
* ``POST /api/groups`` ``{"name"}`` → 201 ``{"group", "code", "invite"}``
* ``GET``/``PATCH /api/groups/{ID}``, ``POST /api/groups/{ID}/join`` ``{"code"}``,
  ``/leave``, ``/code``
* ``GET /api/groups/{ID}/ledger?season=2026|all`` and ``/export.csv``

Every change counts against the address's rate of changes, every read against its rate of
reads; a group answers ``not_found`` to anyone but its members. A key is read only from the
``Authorization`` header and never written anywhere: not in a log line, an error text, a
metric or a record.
"""

from __future__ import annotations

import asyncio
import csv
import io
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..i18n import Lang, t
from ..table import Refusal, clean_name
from ..table.ledger import (
    AWARDS,
    COMEBACK_AFTER,
    CSV_HEADER,
    MIN_GAMES_ARETS_MATTIS,
    csv_rows,
    ledger_changes,
    parse_season,
)
from .community import TRANSFER_SECONDS, Community, Group, Player, normal_code
from .limits import game_number
from .lobby import Lobby
from .qr import qr_svg

Handler = Callable[[Request], Awaitable[Response]]
MAX_KEY = 200
"""Characters of an ``Authorization`` header's key beyond which it cannot be one of ours."""


@dataclass(frozen=True, slots=True)
class WebParts:
    """What these routes need of the application."""

    lobby: Callable[[Request], Lobby]
    community: Callable[[Request], Community]
    json_body: Callable[[Request], Awaitable[object]]
    base: Callable[[Request], str]
    """The address others reach the server at (for invites)."""
    address: Callable[[Request], str]
    lang: Callable[[Request], Lang]


def bearer_key(request: Request) -> str | None:
    """The key of ``Authorization: Bearer KEY``; ``None`` without the header, ``bad_key``
    for a header that is not one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, key = header.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key or len(key) > MAX_KEY or not key.isascii():
        raise Refusal("bad_key")
    return key


async def optional_player(request: Request, community: Community) -> Player | None:
    """The caller's player: ``None`` without a key, ``bad_key`` for a wrong one."""
    key = bearer_key(request)
    if key is None:
        return None
    player = await asyncio.to_thread(community.player_of, key)
    if player is None:
        raise Refusal("bad_key")
    return player


async def the_player(request: Request, community: Community) -> Player:
    """The caller's player; ``bad_key`` without a valid key."""
    player = await optional_player(request, community)
    if player is None:
        raise Refusal("bad_key")
    return player


def player_name(body: object) -> str:
    """The ``name`` of a body: 1 to 24 printable characters once cleaned."""
    if not isinstance(body, dict):
        raise Refusal("bad_request", "expected a JSON object")
    name = clean_name(body.get("name"))
    if not name:
        raise Refusal("bad_request", "name must be 1 to 24 printable characters")
    return name


def group_id(request: Request) -> str:
    """The ``{ID}`` of a group route (anything odd is simply not a group: ``not_found``)."""
    value = str(request.path_params["group_id"])
    if not (0 < len(value) <= 40 and value.isascii()):
        raise Refusal("not_found")
    return value


def group_payload(group: Group, player: Player) -> dict[str, Any]:
    """A group as its members see it."""
    return {"group": group.group, "name": group.name, "creator": group.creator, "you": player.player,
            "members": [{"player": member.player, "name": member.name, "creator": member.creator}
                        for member in group.members]}


def award_names(lang: Lang) -> dict[str, dict[str, str]]:
    """Each award's name and rule in ``lang``."""
    return {award.award: {"name": t(f"web.award.{award.award}.name", lang),
                          "rule": t(f"web.award.{award.award}.rule", lang, games=MIN_GAMES_ARETS_MATTIS,
                                    streak=COMEBACK_AFTER)}
            for award in AWARDS}


def invite_url(base: str, group: str, code: str) -> str:
    """The group page with the join code in its fragment (never sent to a server, so it
    stays out of every access log)."""
    return f"{base}/g/{group}#join={code}"


def community_routes(web: WebParts, api: Callable[[Handler], Handler]) -> list[Route]:
    """The routes, each wrapped by the application's ``api`` (refusals as error bodies)."""

    def changes(request: Request) -> None:
        web.lobby(request).check_address(web.address(request))

    def reads(request: Request) -> None:
        web.lobby(request).check_address(web.address(request), reads=True)

    async def caller(request: Request, *, reads: bool = False) -> tuple[Community, Player]:
        """The community and the calling player, once the caller's address may ask (a read
        or a change: their limits differ); ``bad_key`` without a valid key."""
        web.lobby(request).check_address(web.address(request), reads=reads)
        community = web.community(request)
        return community, await the_player(request, community)

    async def run(function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    @api
    async def create_player(request: Request) -> Response:
        changes(request)
        name = player_name(await web.json_body(request))
        player, key = await run(web.community(request).create_player, name)
        return JSONResponse({"player": player, "key": key, "name": name}, status_code=201)

    async def profile(request: Request, community: Community, player: Player) -> dict[str, Any]:
        groups = await run(community.groups_of, player.player)
        return {"player": player.player, "name": player.name,
                "groups": [{"group": group, "name": name} for group, name in groups],
                "stats": await run(community.own_stats, player.player)}

    @api
    async def me(request: Request) -> Response:
        community = web.community(request)
        if request.method == "GET":
            reads(request)
            player = await the_player(request, community)
            return JSONResponse(await profile(request, community, player))
        changes(request)
        player = await the_player(request, community)
        if request.method == "DELETE":
            await run(community.forget_player, player.player)
            return Response(status_code=204)
        name = player_name(await web.json_body(request))
        await run(community.rename_player, player.player, name)
        return JSONResponse(await profile(request, community, Player(player.player, name)))

    @api
    async def new_device(request: Request) -> Response:
        community, player = await caller(request)
        code = await run(community.new_transfer, player.player)
        url = f"{web.base(request)}/device#code={code}"
        return JSONResponse({"code": code, "url": url, "expires_in": int(TRANSFER_SECONDS),
                             "qr": qr_svg(url, title=t("web.ui.device_qr", web.lang(request))).decode()},
                            status_code=201, headers={"cache-control": "no-store"})

    @api
    async def claim_device(request: Request) -> Response:
        changes(request)
        body = await web.json_body(request)
        code = normal_code(body.get("code") if isinstance(body, dict) else None)
        if code is None:
            raise Refusal("not_found")
        claimed = await run(web.community(request).claim_transfer, code)
        if claimed is None:
            raise Refusal("not_found")
        player, key = claimed
        return JSONResponse({"player": player, "key": key}, status_code=201,
                            headers={"cache-control": "no-store"})

    @api
    async def create_group(request: Request) -> Response:
        community, player = await caller(request)
        name = player_name(await web.json_body(request))
        group, code = await run(community.create_group, player.player, name)
        invite = invite_url(web.base(request), group, code)
        return JSONResponse({"group": group, "code": code, "invite": invite, "name": name}, status_code=201)

    @api
    async def group_info(request: Request) -> Response:
        community = web.community(request)
        group = group_id(request)
        if request.method == "GET":
            reads(request)
            player = await the_player(request, community)
        else:
            changes(request)
            player = await the_player(request, community)
            name = player_name(await web.json_body(request))
            await run(community.rename_group, player.player, group, name)
        return JSONResponse(group_payload(await run(community.group, player.player, group), player))

    @api
    async def join_group(request: Request) -> Response:
        community, player = await caller(request)
        group = group_id(request)
        body = await web.json_body(request)
        code = normal_code(body.get("code") if isinstance(body, dict) else None)
        if code is None or not await run(community.join_group, player.player, group, code):
            raise Refusal("not_found")
        return JSONResponse(group_payload(await run(community.group, player.player, group), player))

    @api
    async def leave_group(request: Request) -> Response:
        community, player = await caller(request)
        await run(community.leave_group, player.player, group_id(request))
        return Response(status_code=204)

    @api
    async def renew_code(request: Request) -> Response:
        community, player = await caller(request)
        group = group_id(request)
        code = await run(community.renew_code, player.player, group)
        invite = invite_url(web.base(request), group, code)
        qr = qr_svg(invite, title=t("web.ui.group_invite_qr", web.lang(request))).decode()
        return JSONResponse({"group": group, "code": code, "invite": invite, "qr": qr}, status_code=201,
                            headers={"cache-control": "no-store"})

    @api
    async def group_ledger(request: Request) -> Response:
        community, player = await caller(request, reads=True)
        lang = web.lang(request)
        try:
            season = parse_season(request.query_params.get("season"), time.time())
        except ValueError:
            raise Refusal("bad_request", "season must be a year such as 2026, or all") from None
        body = await run(community.season_ledger, player.player, group_id(request), season,
                         t("web.ledger.former", lang))
        named = award_names(lang)
        for award in body["awards"]:
            award.update(named[award["award"]])
        return JSONResponse(body, headers={"cache-control": "no-store"})

    @api
    async def game_changes(request: Request) -> Response:
        community, player = await caller(request, reads=True)
        table = request.query_params.get("table") or ""
        number = game_number(request.query_params.get("game"))
        if number is None or not (0 < len(table) <= 40 and table.isascii()):
            raise Refusal("bad_request", "table and game must name a game")
        lang = web.lang(request)
        group = group_id(request)
        season = await run(community.season_of_game, player.player, group, table, number)
        if season is None:
            raise Refusal("not_found")
        games, names = await run(community.ledger_games, player.player, group, season, 0)
        changes = ledger_changes(games, names, table, number, former=t("web.ledger.former", lang))
        if changes is None:
            raise Refusal("not_found")
        named = award_names(lang)
        lines = [t("web.ledger.change", lang, name=row["name"], count=row["mattis"],
                   run=f"{row['run_change']:+d}".replace("-", "\u2212")) for row in changes["players"]]
        for award in changes["awards"]:
            award["title"] = named[award["award"]]["name"]
            lines.append(t("web.ledger.new_award", lang, award=award["title"], name=award["name"]))
        return JSONResponse({**changes, "lines": lines}, headers={"cache-control": "no-store"})

    @api
    async def export_csv(request: Request) -> Response:
        community, player = await caller(request, reads=True)
        group = group_id(request)
        games, names = await run(community.ledger_games, player.player, group, "all", None)
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\r\n")
        writer.writerow(CSV_HEADER)
        writer.writerows(csv_rows(games, names, t("web.ledger.former", web.lang(request))))
        return Response(text.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="mattis-ledger.csv"',
                                 "cache-control": "no-store"})

    return [
        Route("/api/players", create_player, methods=["POST"]),
        Route("/api/players/me", me, methods=["GET", "PATCH", "DELETE"]),
        Route("/api/players/me/devices", new_device, methods=["POST"]),
        Route("/api/players/claim", claim_device, methods=["POST"]),
        Route("/api/groups", create_group, methods=["POST"]),
        Route("/api/groups/{group_id}", group_info, methods=["GET", "PATCH"]),
        Route("/api/groups/{group_id}/join", join_group, methods=["POST"]),
        Route("/api/groups/{group_id}/leave", leave_group, methods=["POST"]),
        Route("/api/groups/{group_id}/code", renew_code, methods=["POST"]),
        Route("/api/groups/{group_id}/ledger", group_ledger),
        Route("/api/groups/{group_id}/export.csv", export_csv),
        Route("/api/groups/{group_id}/changes", game_changes),
    ]
