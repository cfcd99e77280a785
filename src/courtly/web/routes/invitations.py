"""Invitations: a seat of an open table held for a person named by someone seated at it; the
signed-in person's invitations, accepted or declined."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..protocol import AcceptedInvitation, Invitation, Invitations, InviteRequest
from .base import answers

router = APIRouter(tags=["invitations"])


@router.post(
    "/api/tables/{table_id}/invitations",
    summary="Invite a person by name to a free seat of an open table you are seated at: the "
    "seat is held for them",
    **answers(Invitation, 201),
)
async def invite(
    table_id: str, body: InviteRequest, person: Person, server: ServerDep
) -> Invitation:
    return await run_in_threadpool(
        server.invitations.invite, table_id, body.seat, person, body.name
    )


@router.get(
    "/api/account/invitations",
    summary="Your pending invitations: to you, and by you (401: sign in first)",
    **answers(Invitations),
)
async def my_invitations(person: Person, server: ServerDep) -> Invitations:
    return await run_in_threadpool(server.invitations.of_person, person.id)


@router.post(
    "/api/invitations/{invitation_id}/accept",
    summary="Accept an invitation: take the held seat, signed in (its token, shown once)",
    **answers(AcceptedInvitation),
)
async def accept(invitation_id: str, person: Person, server: ServerDep) -> AcceptedInvitation:
    token, invitation = await run_in_threadpool(server.invitations.accept, invitation_id, person)
    return {"token": token, "invitation": invitation}


@router.post(
    "/api/invitations/{invitation_id}/decline",
    summary="Decline an invitation to you, or withdraw one you sent: the seat is free again",
    **answers(Invitation),
)
async def decline(invitation_id: str, person: Person, server: ServerDep) -> Invitation:
    return await run_in_threadpool(server.invitations.decline, invitation_id, person)
