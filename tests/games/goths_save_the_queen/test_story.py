"""The story of Goths Save the Queen (its text's ``tell``): every event told once, each line to
exactly the seats that may know it, with what a player wants to read: a King card's back and
what it may hide, an order given, the reveal and why an order is or is not carried out, every
effect, the choices, the turn's end and the end of the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

import courtly
from courtly.core.events import CHANCE, PUBLIC, observer_bit
from courtly.core.story import Story, story_of
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, VIS, new_game, place, play, turn


def lines_of(state: GothsSaveTheQueenState, step: str) -> list[tuple[int, str]]:
    """The story of ``step`` (``"p0 b1"``) about to be played, as ``(knowers, text)``."""
    seat, _, action = step.partition(" ")
    item = state.parse_action(int(seat[1:]), action)
    return state.game.text.tell(state, int(seat[1:]), item)


def told(state: GothsSaveTheQueenState, step: str, seat: int | None = None) -> list[str]:
    """The lines ``seat`` (None: a spectator) reads of ``step``."""
    bit = observer_bit(seat, state.num_players)
    return [text for knowers, text in lines_of(state, step) if knowers & bit]


def everyone(state: GothsSaveTheQueenState) -> list[int | None]:
    return [None, *range(state.num_players)]


# ----------------------------------------------------------------------------- setting up


def test_the_setup_is_told_without_naming_what_was_drawn() -> None:
    game = courtly.make("goths-save-the-queen", fog_of_war=True)
    state = game.new_state()
    assert isinstance(state, GothsSaveTheQueenState)
    objectives = state.game.text.tell(state, CHANCE, state.chance_outcomes()[0][0])
    assert objectives == [
        (
            PUBLIC,
            "The Trap, the Plains and the Queen are shuffled and laid face down between the "
            "armies as Objectives 0, 1 and 2.",
        )
    ]
    play(state, "trap,queen,plains")
    fog = [text for _, text in state.game.text.tell(state, CHANCE, state.chance_outcomes()[3][0])]
    assert fog == [
        "Two of the four Fog of War tokens are drawn and laid face down, one on each clan's "
        "Plains2; the other two are put away unseen.",
        "Turn 1: the Ostrogoths hold the initiative; p0 (Ostrogoth King) lays the first King card.",
    ]


# ----------------------------------------------------------------------------- giving orders


def test_a_king_card_shows_its_face_to_its_king_and_its_back_to_the_others() -> None:
    state = new_game()
    lines = lines_of(state, "p0 v1")
    assert lines == [
        (1 << 0, "p0 (Ostrogoth King) lays V1 (Vulture) face down; the others see its back, V/R."),
        (
            0b11110,
            "p0 (Ostrogoth King) lays a King card face down; its back shows V/R: V1 (Vulture) or "
            "R1 (Recruiter).",
        ),
    ]
    # R1 has the same back: the others are told exactly the same.
    assert told(state, "p0 r1", 2) == told(state, "p0 v1", 2)
    assert told(state, "p0 r1", 0) == [
        "p0 (Ostrogoth King) lays R1 (Recruiter) face down; the others see its back, V/R."
    ]


def test_a_back_whose_twin_lies_face_up_gives_the_card_away() -> None:
    state = new_game()
    turn(state, o=("r1", "rats"), v=("c1", "load"))  # R1 fails: it lies face up
    play(state, "p1 c2")
    assert told(state, "p0 v1", 3) == [
        "p0 (Ostrogoth King) lays a King card face down; its back shows V/R: R1 lies face up, "
        "so it is V1 (Vulture)."
    ]


def test_an_order_is_named_to_its_warchief_alone() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 c1")
    assert lines_of(state, "p2 advance") == [
        (1 << 2, "p2 (Ostrogoth Warchief) gives the order Advance (7) face down."),
        (0b11011, "p2 (Ostrogoth Warchief) gives an order face down."),
    ]
    for seat in (None, 0, 1, 3):
        assert told(state, "p2 advance", seat) == told(state, "p2 axe", seat)


# ----------------------------------------------------------------------------- the reveal


def test_the_reveal_says_which_orders_are_carried_out_and_why_not() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 v1", "p2 advance")
    assert told(state, "p3 load") == [
        "p3 (Visigoth Warchief) gives an order face down.",
        "The cards are turned up:",
        "Ostrogoths: B1 (Barbarian) and Advance (7): carried out.",
        "Visigoths: V1 (Vulture) and Load (4), which needs a Catapult: not carried out; V1 stays "
        "face up.",
        "The Ostrogoth army advances from O-Forest to O-Plains1.",
        "Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King card.",
    ]
    # The orders are public once turned up, to every seat alike (p3 reads his own first line).
    assert told(state, "p3 load", 3)[1:] == told(state, "p3 load", 0)[1:]
    assert told(state, "p3 load", 3)[0] == (
        "p3 (Visigoth Warchief) gives the order Load (4) face down."
    )


def test_neither_clan_carries_out_its_order() -> None:
    state = new_game()
    play(state, "p0 v1", "p1 v2", "p2 rats")
    assert told(state, "p3 axe")[-2:] == [
        "Neither order is carried out.",
        "Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King card.",
    ]


def test_a_face_up_card_carries_the_order_and_the_king_takes_all_back() -> None:
    state = new_game()
    turn(state, o=("c1", "rats"), v=("r1", "sabotage"))  # both fail: C1 and R1 face up
    play(state, "p1 b1", "p0 v1", "p2 fire")
    assert told(state, "p3 recruit")[1:] == [
        "The cards are turned up:",
        "Visigoths: B1 (Barbarian) and Recruit (3), which needs a Recruiter: carried out thanks "
        "to the R1 lying face up (GOTH-3).",
        "Ostrogoths: V1 (Vulture) and Fire (5), which needs a Catapult: carried out thanks to "
        "the C1 lying face up (GOTH-3).",
        "The Visigoth Recruit (3) goes before the Ostrogoth Fire (5): the lower number first.",
        "A figurine joins the Visigoth army from the reserve: 3 figurines now.",
        "p1 (Visigoth King) takes back R1 and B1 from the table (GOTH-6).",
        "The Ostrogoth catapult is not loaded: the shot does nothing.",
        "p0 (Ostrogoth King) takes back V1 and C1 from the table (GOTH-6).",
        "Turn 3: the Ostrogoths take the initiative; p0 (Ostrogoth King) lays the first King card.",
    ]


def test_equal_numbers_go_by_the_initiative() -> None:
    state = new_game()
    play(state, "p0 v1", "p1 v2", "p2 sabotage")
    assert (
        "Both clans carry out Sabotage (2): the Ostrogoths, who hold the initiative, go first "
        "(GOTH-25)."
    ) in told(state, "p3 sabotage")


def test_a_solo_chief_is_reminded_of_the_character_he_may_not_repeat() -> None:
    state = new_game(solo_clans="visigoths")
    play(state, "p0 b1", "p1 load")
    assert (
        "Visigoths: Load (4), from their solo chief: carried out; he may give no Catapult order "
        "next turn (GOTH-23)."
    ) in told(state, "p2 advance")
    both = new_game(solo_clans="both")
    play(both, "p0 recruit")
    assert told(both, "p1 load")[1] == "The orders are turned up:"


# ----------------------------------------------------------------------------- the effects


def _resolved(state: GothsSaveTheQueenState, step: str) -> list[str]:
    """The public lines of the order that completes the turn, after the two clans' cards."""
    lines = told(state, step)
    assert lines[1] in ("The cards are turned up:", "The orders are turned up:")
    return lines[4:]


def test_attacks_say_what_they_hit_and_why_they_missed() -> None:
    # The Visigoths fail every turn here (a Vulture laid, rats ordered): only the Ostrogoths act.
    state = new_game()
    place(state, VIS, 7, army=3)
    play(state, "p0 b1", "p1 v1", "p2 axe")
    assert _resolved(state, "p3 rats")[0] == (
        "The Ostrogoth axe hits the Visigoth army on V-Plains1: the Visigoths lose 1 figurine "
        "(2 figurines left)."
    )
    forest = new_game()
    play(forest, "p0 b1", "p1 v1", "p2 axe")
    assert _resolved(forest, "p3 rats")[0] == (
        "The Ostrogoth axe cannot reach into the V-Forest: the Visigoth army is safe there."
    )
    walled = new_game()
    place(walled, VIS, 7, barricade=True)
    play(walled, "p0 b1", "p1 v1", "p2 axe")
    assert _resolved(walled, "p3 rats")[0] == (
        "The Ostrogoth axe bounces off the barricade of the Visigoth army on V-Plains1."
    )
    play(walled, "p3 rats", "p1 v2", "p0 b1", "p2 rats")
    assert _resolved(walled, "p3 rats")[0] == (
        "The Ostrogoth rats infest the barricade of the Visigoth army on V-Plains1: the "
        "Visigoths lose 1 figurine (1 figurine left)."
    )
    open_field = new_game()
    play(open_field, "p0 b1", "p1 v1", "p2 rats")
    assert _resolved(open_field, "p3 rats")[0] == (
        "The Ostrogoth rats find no barricade to infest: the Visigoth army on V-Forest is safe."
    )


def test_the_catapult_loaded_fired_stopped_and_sabotaged() -> None:
    state = new_game()
    play(state, "p0 c1", "p1 v1", "p2 load")
    assert _resolved(state, "p3 rats")[0] == "The Ostrogoth catapult is loaded: it is active now."
    play(state, "p3 rats", "p1 v2", "p0 c1", "p2 load")
    assert _resolved(state, "p3 rats")[0] == (
        "The Ostrogoth catapult was loaded already: nothing changes."
    )
    play(state, "p3 rats", "p0 c2", "p1 r1", "p2 fire")
    place(state, VIS, 8, army=1)
    assert _resolved(state, "p3 rats") == [
        "The Ostrogoth catapult fires at the Visigoth army on V-Forest: the Visigoths lose their "
        "last figurine and their army is destroyed (GOTH-12).",
        "The Ostrogoths win (p0 and p2).",
        "Everything hidden is turned up: Objective 0 was the Trap; Objective 1 was the Queen; "
        "Objective 2 was the Plains.",
    ]
    walled = new_game()
    walled.catapult[OST] = True
    place(walled, VIS, 8, barricade=True)
    play(walled, "p0 c1", "p1 v1", "p2 fire")
    assert _resolved(walled, "p3 rats")[0] == (
        "The Ostrogoth catapult fires at the Visigoth army on V-Forest, but the barricade stops "
        "the stone; the catapult is inactive again (GOTH-13)."
    )
    sabotaged = new_game()
    sabotaged.catapult[VIS] = True
    play(sabotaged, "p0 v1", "p1 c1", "p2 sabotage")
    assert _resolved(sabotaged, "p3 rats")[0] == (
        "The Visigoth catapult is sabotaged: it is inactive now."
    )
    play(sabotaged, "p3 rats", "p1 c2", "p0 v1", "p2 sabotage")
    assert _resolved(sabotaged, "p3 rats")[0] == (
        "The Visigoth catapult was not loaded: the sabotage changes nothing."
    )


def test_recruits_and_barricades() -> None:
    state = new_game()
    play(state, "p0 r1", "p1 v1", "p2 recruit")
    assert _resolved(state, "p3 rats")[0] == (
        "A figurine joins the Ostrogoth army from the reserve: 3 figurines now."
    )
    play(state, "p3 rats", "p1 v2", "p0 r1", "p2 recruit")
    assert _resolved(state, "p3 rats")[0] == (
        "The Ostrogoth army is at full strength (3 figurines): nobody joins."
    )
    play(state, "p3 rats", "p0 b1", "p1 r1", "p2 barricade")
    assert _resolved(state, "p3 rats")[0] == "The Ostrogoths build a barricade on O-Forest."
    play(state, "p3 rats", "p1 r2", "p0 b1", "p2 barricade")
    assert _resolved(state, "p3 rats")[0] == (
        "There is a barricade on O-Forest already: nothing changes."
    )
    plains = new_game("plains,queen,trap")
    place(plains, OST, 3)
    play(plains, "p0 b1", "p1 v1", "p2 barricade")
    assert _resolved(plains, "p3 rats")[0] == (
        "No barricade may stand on the Plains Objective: nothing happens (GOTH-9)."
    )
    trap = new_game("trap,queen,plains", barricade_on_trap_objective=False)
    place(trap, OST, 3)
    play(trap, "p0 b1", "p1 v1", "p2 barricade")
    assert _resolved(trap, "p3 rats")[0] == (
        "This table allows no barricade on the Trap: nothing happens (GOTH-9)."
    )


def test_an_advance_into_the_objectives() -> None:
    state = new_game("trap,plains,queen")
    place(state, OST, 2)
    play(state, "p0 b1", "p1 v1", "p2 advance")
    assert _resolved(state, "p3 rats") == [
        "The Ostrogoth army advances: p2 (Ostrogoth Warchief) chooses which Objective it "
        "enters, 0, 1 or 2."
    ]
    play(state, "p3 rats")
    assert told(state, "p2 enter obj0") == [
        "p2 (Ostrogoth Warchief) sends the Ostrogoth army from O-Plains2 onto Objective 0: it is "
        "the Trap, and the Ostrogoths lose 1 figurine (1 figurine left).",
        "Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King card.",
    ]
    assert told(state, "p2 enter obj1")[0] == (
        "p2 (Ostrogoth Warchief) sends the Ostrogoth army from O-Plains2 onto Objective 1: it is "
        "the Plains; nothing happens."
    )
    assert told(state, "p2 enter obj2")[:2] == [
        "p2 (Ostrogoth Warchief) sends the Ostrogoth army from O-Plains2 onto Objective 2: it is "
        "the Queen! The Ostrogoths rescue her.",
        "The Ostrogoths win (p0 and p2).",
    ]


def test_the_trap_bites_again_or_not_by_the_option() -> None:
    for every_entry, text in (
        (True, "the Trap bites again, the Ostrogoths lose 1 figurine (1 figurine left) (GOTH-10)"),
        (False, "the Trap, sprung already, does no harm this time (GOTH-10)"),
    ):
        state = new_game("trap,queen,plains", trap_every_entry=every_entry)
        place(state, VIS, 4)  # the Visigoths on the Queen's card would have won: hand-set
        place(state, OST, 5)
        state.revealed_objectives |= 0b001  # the Trap turned up before
        play(state, "p0 b1", "p1 v1", "p2 advance")
        assert _resolved(state, "p3 rats")[0] == (
            "The Ostrogoth army advances from Objective 2 (the Plains) onto Objective 0, the "
            f"only one it may enter (GOTH-16): {text}."
        )


def test_a_look_is_public_but_what_it_shows_is_the_warchiefs() -> None:
    state = new_game("trap,queen,plains")
    play(state, "p0 v1", "p1 c1", "p2 recon")
    assert _resolved(state, "p3 load") == [
        "The Ostrogoth Reconnaissance (1) goes before the Visigoth Load (4): the lower number "
        "first.",
        "p2 (Ostrogoth Warchief) chooses a card to look at in secret.",
    ]
    play(state, "p3 load")
    assert lines_of(state, "p2 look obj1")[:2] == [
        (
            PUBLIC,
            "p2 (Ostrogoth Warchief) looks at Objective 1 in secret: only he learns what it is "
            "(GOTH-17).",
        ),
        (1 << 2, "p2 sees the Queen under Objective 1."),
    ]
    # The King of the clan does not learn it either (GOTH-17): he is told what all are told.
    assert told(state, "p2 look obj1", 0) == told(state, "p2 look obj1", 1)
    assert told(state, "p2 look obj1", 0)[1:] == [
        "The Visigoth catapult is loaded: it is active now.",
        "Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King card.",
    ]


def test_the_fog_turned_up_looked_at_felt_and_discarded() -> None:
    state = new_game("trap,queen,plains", fog="boar-shortage,gusts")
    state.catapult[OST] = True
    place(state, OST, 1)
    play(state, "p0 b1", "p1 c1", "p2 advance")
    assert _resolved(state, "p3 sabotage")[:3] == [
        "The Ostrogoth army advances from O-Plains1 to O-Plains2.",
        "The Ostrogoths turn up their Fog token: Boar shortage; until they discard it, the "
        "catapult cannot be loaded for them.",
        "The Ostrogoth catapult is inactive now (GOTH-21).",
    ]
    play(state, "p3 sabotage", "p1 v1", "p0 c1", "p2 load")  # V: C1 fails, then V1 and C1
    assert _resolved(state, "p3 recon") == [
        "The Visigoth Reconnaissance (1) goes before the Ostrogoth Load (4): the lower number "
        "first.",
        "p3 (Visigoth Warchief) chooses a card to look at in secret.",
    ]
    play(state, "p3 recon")
    assert lines_of(state, "p3 look fog") == [
        (
            PUBLIC,
            "p3 (Visigoth Warchief) looks at the Visigoth Fog token in secret: only he learns it.",
        ),
        (1 << 3, "p3 sees Gusts: once it is turned up, axes do nothing for the Visigoths."),
        (PUBLIC, "p1 (Visigoth King) takes back V1 and C1 from the table (GOTH-6)."),
        (
            PUBLIC,
            "Boar shortage, the Ostrogoth Fog token: the catapult cannot be loaded (GOTH-21).",
        ),
        (
            PUBLIC,
            "Turn 3: the Ostrogoths take the initiative; p0 (Ostrogoth King) lays the first King "
            "card.",
        ),
    ]
    play(state, "p3 look fog", "p0 b1", "p1 v2", "p2 barricade")
    assert _resolved(state, "p3 rats") == [
        "p2 (Ostrogoth Warchief) chooses: build a barricade on O-Plains2, or discard Boar shortage."
    ]
    play(state, "p3 rats")
    assert told(state, "p2 discard-fog")[:2] == [
        "p2 (Ostrogoth Warchief) discards the Ostrogoth Fog token: Boar shortage hampers the "
        "Ostrogoths no more.",
        "The Ostrogoth catapult stays inactive until it is loaded (GOTH-21).",
    ]
    assert told(state, "p2 build-barricade")[0] == (
        "The Ostrogoths build a barricade on O-Plains2."
    )


def test_pea_soup_reduced_numbers_and_gusts_say_why_nothing_happens() -> None:
    state = new_game("trap,queen,plains", fog="pea-soup,gusts")
    state.fog_state = [1, 1]  # both tokens turned up
    play(state, "p0 v1", "p1 b1", "p2 recon")
    assert _resolved(state, "p3 axe")[:3] == [
        "The Ostrogoth Reconnaissance (1) goes before the Visigoth Axe (8): the lower number "
        "first.",
        "Pea soup, the Ostrogoth Fog token: the Ostrogoth Vulture sees nothing (GOTH-20).",
        "Gusts, the Visigoth Fog token, blow the axe away: nothing happens (GOTH-20).",
    ]
    fewer = new_game("trap,queen,plains", fog="reduced-numbers,gusts")
    fewer.fog_state = [1, 0]
    play(fewer, "p0 r1", "p1 v1", "p2 recruit")
    assert _resolved(fewer, "p3 axe")[0] == (
        "Reduced numbers, the Ostrogoth Fog token: nobody answers the call (GOTH-20)."
    )


# ----------------------------------------------------------------------------- the end


def test_a_win_cuts_the_turn_short_and_turns_everything_up() -> None:
    state = new_game("plains,queen,trap", fog="gusts,pea-soup")
    place(state, OST, 2)
    play(state, "p0 b1", "p1 b2", "p2 advance", "p3 axe")
    assert told(state, "p2 enter obj1") == [
        "p2 (Ostrogoth Warchief) sends the Ostrogoth army from O-Plains2 onto Objective 1: it is "
        "the Queen! The Ostrogoths rescue her.",
        "The Visigoth Axe (8) is never carried out: the game is over (GOTH-18).",
        "The Ostrogoths win (p0 and p2).",
        "Everything hidden is turned up: Objective 0 was the Plains; Objective 2 was the Trap; "
        "the Ostrogoth Fog token was Gusts; the Visigoth Fog token was Pea soup.",
    ]


def test_the_safety_cap_is_told() -> None:
    state = new_game(safety_cap=1)
    play(state, "p0 v1", "p1 v1", "p2 rats")
    assert told(state, "p3 rats")[-2:] == [
        "Turn 1 is over: the safety cap of 1 turn ends the game in a draw, the Queen still "
        "captive (GOTH-26).",
        "Everything hidden is turned up: Objective 0 was the Trap; Objective 1 was the Queen; "
        "Objective 2 was the Plains.",
    ]


# ----------------------------------------------------------------------------- who is told what


def _observation(state: GothsSaveTheQueenState, seat: int | None) -> Any:
    return state.game.views.observation(state, seat)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"fog_of_war": True},
        {"solo_clans": "visigoths", "fog_of_war": True},
        {"solo_clans": "both"},
    ],
)
def test_a_seat_is_told_the_same_in_every_world_it_cannot_tell_apart(
    options: dict[str, object],
) -> None:
    """A line that named something a seat may not know (a King card's face, an order, an
    Objective, a Fog token) would read differently in a world drawn from that seat's view, or
    for another move the seat cannot tell from the one made; so wherever the seat cannot tell
    the two apart after the event either, it must have been told the very same lines."""
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    rng = random.Random(11)
    compared = 0
    for _ in range(4):
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        while not state.is_terminal:
            if state.is_chance:
                actor, item = CHANCE, state.sample_chance_outcome(rng)
            else:
                actor = state.to_move[0]
                item = rng.choice(state.legal_actions(actor))
            after = state.clone()
            after.apply_chance(item) if actor == CHANCE else after.apply(actor, item)
            for seat in everyone(state):
                world = state.view(seat).determinize(rng)
                if actor != CHANCE and item not in world.legal_actions(actor):
                    continue
                world_after = world.clone()
                if actor == CHANCE:
                    world_after.apply_chance(item)
                else:
                    world_after.apply(actor, item)
                if _observation(world_after, seat) != _observation(after, seat):
                    continue  # the event itself tells the two apart (a reveal)
                assert world.narrate(actor, item, seat) == state.narrate(actor, item, seat), (
                    seat,
                    actor,
                    item,
                )
                compared += 1
            for seat in everyone(state) if actor != CHANCE else ():
                # (the spectator sees an event as any seat but its actor does)
                observer = state.num_players if seat is None else seat
                seen = game.views.observed(state, actor, item, observer)
                for other in state.legal_actions(actor):
                    if seat == actor or other == item:
                        continue
                    if game.views.observed(state, actor, other, observer) != seen:
                        continue
                    other_after = state.clone()
                    other_after.apply(actor, other)
                    if _observation(other_after, seat) != _observation(after, seat):
                        continue
                    assert state.narrate(actor, other, seat) == state.narrate(actor, item, seat)
                    compared += 1
            state = after
    assert compared > 200


@pytest.mark.parametrize("options", [{"fog_of_war": True}, {"solo_clans": "visigoths"}])
def test_the_story_kept_is_the_story_told_again(options: dict[str, object]) -> None:
    """The contract suite's check, for the variants it does not build: the lines kept as the
    game goes are those told again from its record, and each line is told once."""
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    rng = random.Random(3)
    state = game.new_state()
    story = Story()
    while not state.is_terminal:
        if state.is_chance:
            outcome = state.sample_chance_outcome(rng)
            story.tell(state, CHANCE, outcome)
            state.apply_chance(outcome)
            continue
        seat = state.to_move[0]
        action = rng.choice(state.legal_actions(seat))
        story.tell(state, seat, action)
        state.apply(seat, action)
    assert story_of(game, state.history_text()).lines == story.lines
    for index in {index for index, _, _ in story.lines}:
        texts = [text for at, _, text in story.lines if at == index]
        assert len(texts) == len(set(texts))
