"""What administrators do: close a table, hide a name, disable an account, and read the log of
every such act. Every route is refused (403) to anyone else."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..people import Account
from ..protocol import AdminAct, AdminReason, DisableAccount
from .base import answers

router = APIRouter(prefix="/api/admin", tags=["admin"])


async def administrator(account: Person) -> Account:
    if not account.admin:
        raise HTTPException(403, "only an administrator may do this")
    return account


Admin = Annotated[Account, Depends(administrator)]


@router.post(
    "/tables/{table_id}/close", summary="Close a table open or in play", **answers(AdminAct)
)
async def close_table(
    table_id: str, admin: Admin, server: ServerDep, body: AdminReason | None = None
) -> AdminAct:
    reason = body.reason if body else ""
    return await run_in_threadpool(server.administration.close, admin, table_id, reason)


@router.post(
    "/accounts/{name}/hide-name",
    summary='Show a person\'s name as "hidden name" everywhere',
    **answers(AdminAct),
)
async def hide_name(
    name: str, admin: Admin, server: ServerDep, body: AdminReason | None = None
) -> AdminAct:
    reason = body.reason if body else ""
    return await run_in_threadpool(server.administration.hide_name, admin, name, reason)


@router.post(
    "/accounts/{name}/disable",
    summary="Disable an account (it cannot sign in; its sessions end), or enable it",
    **answers(AdminAct),
)
async def disable(
    name: str, admin: Admin, server: ServerDep, body: DisableAccount | None = None
) -> AdminAct:
    disabled, reason = (body.disabled, body.reason) if body else (True, "")
    return await run_in_threadpool(server.administration.disable, admin, name, disabled, reason)


@router.get(
    "/acts", summary="The administrators' acts, the newest first", **answers(list[AdminAct])
)
async def acts(
    _admin: Admin, server: ServerDep, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> list[AdminAct]:
    return await run_in_threadpool(server.administration.acts, limit)
