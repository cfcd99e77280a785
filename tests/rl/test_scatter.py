"""The observer's C kernels (``courtly/rl/_scatter.c``, built by ``make compiled``): exactly
bincount's float32 vector for every writer's sinks and NumPy's mask of the legal ids, the
filler bound to one array exactly the view's vector, OpenSpiel's set_from taking a Courtly state
to the filler and anything else to the checked path, and bad input refused with nothing written.

Under ``COURTLY_PURE=1`` (or without a build) the library does not use it, so these tests build
it from its C source into a temporary folder: what they check is always the current source.
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from librt.strings import BytesWriter, write_f64_le, write_i16_le

from courtly import _compiled
from courtly.core import games, make
from courtly.core.actions import Action
from courtly.core.game import Game
from courtly.rl.tensors import (
    FillerKernel,
    Mark,
    Observer,
    Scatter,
    SetFromKernel,
    filler_kernel,
    mark_kernel,
    observation_tensor,
    scatter_kernel,
    set_from_kernel,
    summed,
)
from tests.core.test_contract import sampled_states

CASES = [
    (info.id, n) for info in games() if info.tensor_layout is not None for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


def build_kernels(folder: Path) -> tuple[Scatter, Mark, FillerKernel, SetFromKernel]:
    """The kernels compiled from their C source into ``folder``, as the build makes them, and
    loaded from there."""
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("_courtly_build", root / "tools" / "compile.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    extension = build.c_extension("courtly.rl._scatter")
    command = build_ext(Distribution({"ext_modules": [extension]}))
    command.build_lib = str(folder)
    command.build_temp = str(folder / "temp")
    command.ensure_finalized()
    command.run()
    spec = importlib.util.spec_from_file_location("_scatter", command.get_ext_fullpath("_scatter"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scatter, module.mark, module.Filler, module.SetFrom


Kernels = tuple[Scatter, Mark, FillerKernel, SetFromKernel]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Kernels:
    if (
        scatter_kernel is not None
        and mark_kernel is not None
        and filler_kernel is not None
        and set_from_kernel is not None
    ):
        return scatter_kernel, mark_kernel, filler_kernel, set_from_kernel  # the build's, in use
    return build_kernels(tmp_path_factory.mktemp("scatter"))


@pytest.fixture(scope="module")
def kernel(kernels: Kernels) -> Scatter:
    return kernels[0]


@pytest.fixture(scope="module")
def mark(kernels: Kernels) -> Mark:
    return kernels[1]


@pytest.fixture(scope="module")
def filler(kernels: Kernels) -> FillerKernel:
    return kernels[2]


@pytest.fixture(scope="module")
def set_from(kernels: Kernels) -> SetFromKernel:
    return kernels[3]


@pytest.fixture(params=CASES, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    game_id, players = request.param
    return make(game_id, players=players)


@pytest.mark.parametrize("seed", range(3))
def test_the_kernels_equal_numpy_over_random_play(
    kernel: Scatter, mark: Mark, game: Game, seed: int
) -> None:
    fast = Observer(game)
    fast.scatter = kernel
    fast.mark = mark
    reference = Observer(game)
    reference.scatter = reference.mark = None  # bincount and item writes, the reference path
    writer = fast.writer
    assert writer is not None
    out = np.full(fast.size, 9.0, np.float32)
    sums = np.zeros(fast.size, np.float64)
    ones, pairs = BytesWriter(), BytesWriter()
    for state in sampled_states(game, seed, every=1):
        for seat in range(game.num_players):
            writer(state, seat, ones, pairs)
            expected = summed(ones.getvalue(), pairs.getvalue(), fast.size).astype(np.float32)
            kernel(ones, pairs, out, sums)
            assert np.array_equal(out, expected) and not sums.any()
            assert len(ones) == len(pairs) == 0  # emptied for the writer's next call
            observation, mask = fast.observe(state, seat)
            reference_observation, reference_mask = reference.observe(state, seat)
            assert observation.dtype == np.float32
            assert np.array_equal(observation, reference_observation)
            assert np.array_equal(mask, reference_mask)
            out.fill(9.0)
            fast.write_observation(state, seat, out)
            assert np.array_equal(out, reference_observation)
            assert not fast._sums.any()  # left zeros for the next call
            mask_out = np.full(game.num_actions, 9, np.int8)
            out.fill(9.0)
            fast.write(state, seat, out, mask_out)
            assert np.array_equal(out, reference_observation)
            assert np.array_equal(mask_out, reference_mask)


@pytest.mark.parametrize("seed", range(3))
def test_the_filler_writes_the_views_vector_over_random_play(
    kernel: Scatter, filler: FillerKernel, game: Game, seed: int
) -> None:
    # One filler per seat and one shared by all, each bound to its array once; the Python fill
    # (no kernel) too: every one the reference vector of the seat's view, every seat, every
    # state, whatever the array held before.
    fast = Observer(game)
    fast.scatter = kernel
    fast.filler_kernel = filler
    plain = Observer(game)
    plain.scatter = plain.filler_kernel = None
    seats = range(game.num_players)
    outs = [np.full(fast.size, 9.0, np.float32) for _ in seats]
    fills = [fast.filler(out) for out in outs]
    assert all(type(fill) is filler for fill in fills)
    shared_out = np.full(fast.size, 9.0, np.float32)
    shared = fast.filler(shared_out)
    plain_out = np.full(fast.size, 9.0, np.float32)
    plain_fill = plain.filler(plain_out)
    assert type(plain_fill) is not filler
    for state in sampled_states(game, seed, every=1):
        for seat in seats:
            expected = observation_tensor(state.view(seat))
            outs[seat].fill(7.0)
            fills[seat](state, seat)
            shared(state, seat)
            plain_fill(state, seat)
            for out in (outs[seat], shared_out, plain_out):
                assert np.array_equal(out, expected)
                assert np.array_equal(np.signbit(out), np.signbit(expected))
        assert all(fill.sums_clear for fill in fills)  # type: ignore[attr-defined]


calls: list[tuple[object, object]] = []

Pairs = list[tuple[int, float]]


def into(sink: BytesWriter, slots: list[int]) -> None:
    """``slots`` written to a writer's ``ones``."""
    for slot in slots:
        write_i16_le(sink, slot)


def paired_into(sink: BytesWriter, pairs: Pairs) -> None:
    """``(slot, value)`` pairs written to a writer's ``pairs``."""
    for slot, value in pairs:
        write_i16_le(sink, slot)
        write_f64_le(sink, value)


def writing(ones: list[int], pairs: Pairs, raw: bytes = b"") -> Any:
    """A writer that writes these slots and pairs (then ``raw`` to ``ones``) whatever it is asked,
    after checking that the filler handed it empty sinks; it notes its calls in ``calls``."""

    def writer(state: object, seat: object, one_sink: BytesWriter, pair_sink: BytesWriter) -> None:
        assert len(one_sink) == len(pair_sink) == 0  # what the call before wrote is gone
        calls.append((state, seat))
        into(one_sink, ones)
        paired_into(pair_sink, pairs)
        one_sink.write(raw)

    return writer


def _random_writes(rng: random.Random, size: int) -> tuple[list[int], Pairs]:
    """A writer's slots and pairs naming slots of ``size`` at random, many of them repeatedly."""
    count = rng.choice((30, 300))
    ones = [rng.randrange(size) for _ in range(rng.randrange(count))]
    pairs = [
        (rng.randrange(size), rng.choice((1 / 3, 0.1, 1.0, 2.0, -0.0, 1e-8, 7.0)))
        for _ in range(rng.randrange(count))
    ]
    return ones, pairs


def _in_order(ones: list[int], pairs: Pairs, size: int) -> npt.NDArray[np.float32]:
    """The sums as the contract states them, one float64 addition at a time: each pair's value
    in order, then 1.0 for each of the ones; rounded once to float32."""
    sums = [0.0] * size
    for slot, value in pairs:
        sums[slot] += value
    for slot in ones:
        sums[slot] += 1.0
    return np.array(sums, np.float64).astype(np.float32)


def test_the_filler_sums_a_repeated_slot_in_float64_and_rounds_once(
    filler: FillerKernel,
) -> None:
    rng = random.Random(8)
    for _ in range(200):
        size = rng.randrange(1, 40)
        ones, pairs = _random_writes(rng, size)
        out = np.full(size, 4.0, np.float32)
        fill = filler(writing(ones, pairs), out)
        fill(None, 0)  # type: ignore[arg-type]
        expected = _in_order(ones, pairs, size)
        assert np.array_equal(out, expected)
        assert np.array_equal(np.signbit(out), np.signbit(expected))
        assert fill.sums_clear  # type: ignore[attr-defined]


def test_the_filler_refuses_bad_input_and_writes_nothing(filler: FillerKernel) -> None:
    size = 6
    out = np.full(size, 3.0, np.float32)

    def raising(state: object, seat: object, ones: BytesWriter, pairs: BytesWriter) -> None:
        into(ones, [1])
        paired_into(pairs, [(1, 1.0)])
        raise KeyError("the writer's own error")

    bad: list[tuple[type[Exception], str, object]] = [
        (ValueError, "slot 6 is outside", writing([0, 6], [(1, 0.5)])),
        (ValueError, "slot 9 is outside", writing([1], [(2, 0.5), (9, 0.5)])),
        (ValueError, "not whole slots", writing([1], [(2, 0.5)], raw=b"\x01")),
        (KeyError, "the writer's own error", raising),
    ]
    calls.clear()
    for error, message, writer in bad:
        fill = filler(writer, out)  # type: ignore[arg-type]
        for _ in range(2):  # and again: what the failed call left in the sinks is gone
            with pytest.raises(error, match=message):
                fill("state", 1)  # type: ignore[arg-type]
            assert (out == 3.0).all() and fill.sums_clear  # type: ignore[attr-defined]
    assert calls[:2] == [("state", 1), ("state", 1)]
    good = filler(writing([0, 5], [(5, 0.5), (0, 1.0), (5, 0.25)]), out)
    with pytest.raises(TypeError, match="2 positional arguments"):
        good("state")  # type: ignore[call-arg, arg-type]
    with pytest.raises(TypeError, match="2 positional arguments"):
        good("state", seat=1)  # type: ignore[call-arg, arg-type]
    assert (out == 3.0).all()
    good("state", 0)  # type: ignore[arg-type]
    assert out.tolist() == [2.0, 0.0, 0.0, 0.0, 0.0, 1.75]
    with pytest.raises(ValueError, match="cannot resize"):
        out.resize(3, refcheck=False)  # the filler holds the array's buffer
    with pytest.raises(TypeError, match="callable"):
        filler(None, out)  # type: ignore[arg-type]
    writer = writing([1], [])
    frozen = out.copy()
    frozen.flags.writeable = False
    for bad_out, message in [
        (out.astype(np.float64), "dtype float32"),
        (np.full((2, 3), 3.0, np.float32), "one-dimensional"),
        (np.full(12, 3.0, np.float32)[::2], "C-contiguous"),
        (list(out), "writable C-contiguous"),
        (frozen, "writable"),
    ]:
        with pytest.raises(ValueError, match=message):
            filler(writer, bad_out)  # type: ignore[arg-type]
    observer = Observer(make("kings-court", players=4))
    with pytest.raises(ValueError, match="shape"):
        observer.filler(np.zeros(observer.size + 1, np.float32))
    with pytest.raises(ValueError, match="dtype float32"):
        observer.filler(np.zeros(observer.size, np.float64))


class _Held:
    """Attributes given by name: a stand-in for OpenSpiel's state and what it holds."""

    def __init__(self, **attributes: object) -> None:
        self.__dict__.update(attributes)


def test_set_from_fills_from_a_state_of_its_game_and_hands_the_rest_to_the_checked_path(
    filler: FillerKernel, set_from: SetFromKernel
) -> None:
    game = object()
    courtly = _Held(game=game, history=[("a", "move")])
    spiel_state = _Held(position=_Held(state=courtly))
    out = np.full(4, 3.0, np.float32)
    fill = filler(writing([1], [(3, 0.5)]), out)
    checked_calls: list[tuple[object, ...]] = []

    def checked(*args: object, **kwargs: object) -> str:
        checked_calls.append((*args, kwargs))
        return "checked"

    setter = set_from(fill, game, 3, checked)  # type: ignore[arg-type]
    calls.clear()
    for seat in (0, 2):
        out.fill(9.0)
        assert setter(spiel_state, seat) is None
        assert out.tolist() == [0.0, 1.0, 0.0, 0.5]
    assert calls == [(courtly, 0), (courtly, 2)] and not checked_calls
    # Anything but a state of the game past its start with an int seat in range: the checked
    # path, with the caller's own arguments (and its answer or its error).
    other = _Held(position=_Held(state=_Held(game=object(), history=[1])))
    fresh = _Held(position=_Held(state=_Held(game=game, history=[])))
    odd_history = _Held(position=_Held(state=_Held(game=game, history=(1,))))
    for arguments in [
        (spiel_state, -1),
        (spiel_state, 3),
        (spiel_state, 2**70),
        (spiel_state, True),
        (spiel_state, np.int64(1)),
        (spiel_state, 1.0),
        (other, 1),
        (fresh, 1),
        (odd_history, 1),
        (courtly, 1),
        (_Held(position=None), 1),
        (spiel_state,),
        (spiel_state, 1, 2),
    ]:
        checked_calls.clear()
        out.fill(9.0)
        assert setter(*arguments) == "checked"  # type: ignore[arg-type]
        assert checked_calls == [(*arguments, {})] and (out == 9.0).all()
    checked_calls.clear()
    assert setter(spiel_state, player=1) == "checked"  # type: ignore[call-arg]
    assert checked_calls == [(spiel_state, {"player": 1})]
    assert calls == [(courtly, 0), (courtly, 2)]
    # The writer's error is the caller's, the array left as it was.
    failing = set_from(filler(writing([7], []), out), game, 3, checked)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside"):
        failing(spiel_state, 1)
    assert (out == 9.0).all()
    # Any other fill is called with the Courtly state.
    seen: list[tuple[object, object]] = []
    setter = set_from(lambda state, seat: seen.append((state, seat)), game, 3, checked)  # type: ignore[arg-type]
    assert setter(spiel_state, 1) is None and seen == [(courtly, 1)]
    with pytest.raises(TypeError, match="callable"):
        set_from(None, game, 3, checked)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        set_from(fill, game, 3, None)  # type: ignore[arg-type]


def sinks(ones: list[int], pairs: Pairs, raw: bytes = b"") -> tuple[BytesWriter, BytesWriter]:
    """Sinks holding what a writer of these slots and pairs (then ``raw`` in ``ones``) wrote."""
    one_sink, pair_sink = BytesWriter(), BytesWriter()
    writing(ones, pairs, raw)(None, 0, one_sink, pair_sink)
    return one_sink, pair_sink


def test_the_kernel_sums_a_repeated_slot_in_float64_and_rounds_once(kernel: Scatter) -> None:
    rng = random.Random(5)
    for _ in range(200):
        size = rng.randrange(1, 40)
        ones, pairs = _random_writes(rng, size)
        out = np.full(size, 4.0, np.float32)
        scratch = np.zeros(size, np.float64)
        one_sink, pair_sink = sinks(ones, pairs)
        read_back = summed(one_sink.getvalue(), pair_sink.getvalue(), size)
        kernel(one_sink, pair_sink, out, scratch)
        expected = _in_order(ones, pairs, size)
        assert np.array_equal(out, read_back.astype(np.float32))
        assert np.array_equal(out, expected) and not scratch.any()
        assert np.array_equal(np.signbit(out), np.signbit(expected))


def _arrays(size: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]:
    return np.full(size, 3.0, np.float32), np.zeros(size, np.float64)


def test_the_kernel_refuses_bad_input_and_writes_nothing(kernel: Scatter) -> None:
    size = 6
    out, scratch = _arrays(size)
    bad: list[tuple[type[Exception], str, tuple[object, object]]] = [
        (ValueError, "slot 6 is outside", sinks([0, 6], [(1, 0.5)])),
        (ValueError, "slot 7 is outside", sinks([1], [(2, 0.5), (7, 0.5)])),
        (ValueError, "slot -1 is outside", sinks([1, -1], [])),
        (ValueError, "slot -32768 is outside", sinks([1], [(-32768, 0.5)])),
        (ValueError, "not whole slots", sinks([1, 2], [], raw=b"\x01")),
        (ValueError, "not whole slots and .slot, value. pairs", (sinks([1], [])[0], bad_pairs())),
        (TypeError, "BytesWriter sinks, not list", ([1, 2], sinks([], [])[1])),
        (TypeError, "BytesWriter sinks, not BytesWriter and bytes", (BytesWriter(), b"")),
    ]
    for error, message, (ones, pairs) in bad:
        with pytest.raises(error, match=message):
            kernel(ones, pairs, out, scratch)  # type: ignore[arg-type]
        assert (out == 3.0).all() and not scratch.any()
        for sink in (ones, pairs):
            assert not isinstance(sink, BytesWriter) or len(sink) == 0  # emptied, read or not
    bad_arrays: list[tuple[object, object, str]] = [
        (out.astype(np.float64), scratch, "dtype float32"),
        (out, scratch.astype(np.float32), "dtype float64"),
        (np.full((2, 3), 3.0, np.float32), scratch, "one-dimensional"),
        (np.full(12, 3.0, np.float32)[::2], scratch, "C-contiguous"),
        (out, np.zeros(size + 1), "scratch has 7 floats, out 6"),
        (list(out), scratch, "writable C-contiguous"),
        (b"\0" * 24, scratch, "writable C-contiguous"),
    ]
    for bad_out, bad_scratch, message in bad_arrays:
        ones, pairs = sinks([1, 2], [(3, 0.5)])
        with pytest.raises(ValueError, match=message):
            kernel(ones, pairs, bad_out, bad_scratch)  # type: ignore[arg-type]
        assert (out == 3.0).all() and not scratch.any()
        assert len(ones) == len(pairs) == 0
    frozen = out.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        kernel(*sinks([1], []), frozen, scratch)
    with pytest.raises(TypeError, match="4 arguments"):
        kernel(*sinks([1], []), out)  # type: ignore[call-arg]
    assert (out == 3.0).all() and not scratch.any()
    kernel(*sinks([0, 5], [(5, 0.5), (0, 1.0), (5, 0.25)]), out, scratch)
    assert out.tolist() == [2.0, 0.0, 0.0, 0.0, 0.0, 1.75] and not scratch.any()


def bad_pairs() -> BytesWriter:
    """A ``pairs`` sink whose last record lacks its value."""
    sink = BytesWriter()
    paired_into(sink, [(1, 0.5)])
    write_i16_le(sink, 2)
    return sink


def test_mark_refuses_bad_ids_and_writes_nothing(mark: Mark) -> None:
    mask = np.full(5, 3, np.int8)
    good = [Action(4, "d"), Action(0, "a")]
    bad: list[tuple[type[Exception], str, object]] = [
        (ValueError, "outside the mask", [*good, Action(5, "e")]),
        (ValueError, "outside the mask", [Action(-1, "z"), *good]),
        (ValueError, "outside the mask", [Action(2**70, "z")]),
        (TypeError, "not an int", [Action(1.0, "b")]),  # type: ignore[arg-type]
        (TypeError, "not an int", [Action(True, "b")]),  # type: ignore[arg-type]
        (AttributeError, "id", [*good, "a"]),
        (TypeError, "sequence", 7),
    ]
    for error, message, actions in bad:
        with pytest.raises(error, match=message):
            mark(actions, mask)  # type: ignore[arg-type]
        assert (mask == 3).all()
    for bad_mask, message in [
        (mask.astype(np.int16), "dtype int8"),
        (np.full(10, 3, np.int8)[::2], "C-contiguous"),
        (list(mask), "C-contiguous"),
    ]:
        with pytest.raises(ValueError, match=message):
            mark(good, bad_mask)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="2 arguments"):
        mark(good)  # type: ignore[call-arg]
    assert (mask == 3).all()
    mark((), mask)  # no action: all zeros
    assert mask.tolist() == [0, 0, 0, 0, 0]
    many = [Action(i % 5, str(i)) for i in range(0, 300, 2)]  # more ids than the stack holds
    mark(many, mask)
    assert mask.tolist() == [1, 1, 1, 1, 1]


def test_the_observer_uses_the_kernels_when_built() -> None:
    observer = Observer(make("kings-court", players=4))
    assert observer.scatter is scatter_kernel and observer.mark is mark_kernel
    assert observer.filler_kernel is filler_kernel
    assert (scatter_kernel is None) == (mark_kernel is None) == (filler_kernel is None)
    fill = observer.filler(np.zeros(observer.size, np.float32))
    assert (type(fill) is filler_kernel) == (filler_kernel is not None)
    built = _compiled.extensions()
    fresh = bool(built) and not _compiled.stale_extensions(built)
    fresh = fresh and not _compiled.stale_modules(_compiled.manifest())
    pure = os.environ.get("COURTLY_PURE", "") not in ("", "0")
    assert (scatter_kernel is not None) == (fresh and not pure)
