"""Power Puck Shot shots: any arrow reveals exactly the planned count, the checker agrees and
refuses tampered paths, and the same inputs give the same path (docs/games/power-puck-shot.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.power_puck_shot import geometry
from engine.power_puck_shot.paths import (
    ARROWS,
    DROP,
    LAUNCH,
    MAX_REVEALS,
    PIP_RADIUS,
    POCKETS,
    Path,
    Reveal,
    _build,
    check_path,
    pip,
    shot_path,
)
from engine.rng import Stream

COUNTS = range(1, MAX_REVEALS + 1)


def seed(n: int) -> bytes:
    """The n-th test seed."""
    return n.to_bytes(16, "big")


def sound(path: Path, reveals: int) -> None:
    """The checker accepts the path and it has the basic shape."""
    assert check_path(path, reveals) == []
    assert len(path.reveals) == reveals
    squares = [r.square for r in path.reveals]
    assert len(set(squares)) == len(squares)  # a pip reveals at most once
    assert path.points[0] == LAUNCH and path.pocket in POCKETS


def test_every_arrow_every_count_many_seeds() -> None:
    for n in range(200):
        for arrow in range(len(ARROWS)):
            for reveals in COUNTS:
                sound(shot_path(seed(n), n % 7, arrow, reveals), reveals)


@settings(max_examples=400, deadline=None)
@given(
    st.binary(max_size=32),
    st.integers(0, 2**32 - 1),
    st.integers(0, len(ARROWS) - 1),
    st.integers(1, MAX_REVEALS),
)
def test_checker_accepts_any_shot(data: bytes, shot: int, arrow: int, reveals: int) -> None:
    sound(shot_path(data, shot, arrow, reveals), reveals)


def test_the_fallback_routes_work() -> None:
    for arrow in range(len(ARROWS)):
        for reveals in COUNTS:
            sound(_build(Stream(b"fallback"), arrow, geometry.fallback(arrow, reveals)), reveals)


def test_refuses_arguments_out_of_range() -> None:
    for arrow, reveals in ((-1, 3), (6, 3), (0, 0), (0, MAX_REVEALS + 1)):
        with pytest.raises(ValueError):
            shot_path(seed(1), 0, arrow, reveals)
    with pytest.raises(ValueError):
        shot_path(seed(1), -1, 0, 3)
    with pytest.raises(TypeError):
        shot_path("seed", 0, 0, 3)  # type: ignore[arg-type]


def test_same_inputs_same_path() -> None:
    for n in range(20):
        args = (seed(n), n, n % 6, 1 + n % MAX_REVEALS)
        assert shot_path(*args) == shot_path(*args)


# The same bytes in CPython 3.11 and in Pyodide (CPython 3.14), checked when pinned.
GOLDEN = "5c82bb6475635628ef9f6d703f8531870805bf795a0020363668ca5d51828835"


def test_golden_paths() -> None:
    paths = [shot_path(seed(7), shot, arrow, r) for shot, arrow, r in ((0, 0, 1), (1, 3, 6),
             (2, 5, 12), (3, 1, 16), (9, 2, 9))]  # fmt: skip
    text = json.dumps([p.to_json() for p in paths], sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == GOLDEN


def test_the_arrow_changes_the_path_not_the_count() -> None:
    for n in range(30):
        for reveals in COUNTS:
            paths = [shot_path(seed(n), 0, arrow, reveals) for arrow in range(len(ARROWS))]
            assert len({p.points for p in paths}) == len(ARROWS)
            assert {len(p.reveals) for p in paths} == {reveals}


def test_the_seed_varies_the_path_and_bumpers() -> None:
    paths = [shot_path(seed(n), 0, 2, 6) for n in range(60)]
    assert len({p.points for p in paths}) > 30
    assert len({p.bumpers for p in paths}) > 20
    assert all(p.bumpers for p in paths)  # at least one bumper always shows


def test_arrows_launch_as_documented() -> None:
    degrees = [math.degrees(math.atan2(dx, -dy)) for dx, dy in ARROWS]
    assert [round(d, 2) for d in degrees] == [-36.87, -20.56, -7.13, 7.13, 20.56, 36.87]


def test_the_crossings_table_matches_plain_geometry() -> None:
    """Each precomputed crossing passes over exactly the pips a float computation finds."""
    for legs in geometry.legs().values():
        for leg in legs:
            y0, y1 = (3.0, 1.0) if leg.up else (1.0, 3.0)
            points = [(leg.start / 4, y0), *leg.walls, (leg.end / 4, y1)]
            found: dict[int, float] = {}
            done = 0.0
            for (ax, ay), (bx, by) in itertools.pairwise(points):
                length = math.dist((ax, ay), (bx, by))
                ux, uy = (bx - ax) / length, (by - ay) / length
                for square in range(16):
                    px, py = pip(square)
                    t = min(max((px - ax) * ux + (py - ay) * uy, 0), length)
                    gap = math.dist((ax + t * ux, ay + t * uy), (px, py))
                    assert abs(gap - PIP_RADIUS) >= 0.02 - 1e-9
                    if gap < PIP_RADIUS:
                        found.setdefault(square, done + t)
                done += length
            expected = sorted(found.items(), key=lambda item: item[1])
            assert [s for s, _ in leg.pips] == [s for s, _ in expected]
            assert all(abs(a - b) < 1e-5 for (_, a), (_, b) in zip(leg.pips, expected, strict=True))
            assert math.isclose(done, leg.length)


# Tampering: each change must be refused.


def a_path(want: str, reveals: int = 8) -> Path:
    """A path with at least one point of the given kind."""
    for n in range(100):
        path = shot_path(seed(n), 0, n % 6, reveals)
        if want in path.kinds[1:-1]:
            return path
    raise AssertionError(f"no path with a {want}")


def moved(path: Path, index: int, dx: float, dy: float) -> Path:
    """The path with one point moved."""
    points = list(path.points)
    x, y = points[index]
    points[index] = (round(x + dx, 6), round(y + dy, 6))
    return dataclasses.replace(path, points=tuple(points))


def test_refuses_a_moved_point() -> None:
    path = a_path("wall")
    i = path.kinds.index("wall")
    assert check_path(moved(path, i, 0.0, 0.05), 8)
    assert check_path(moved(path, i, 0.05, 0.0), 8)
    j = path.kinds.index("bumper", 1) if "bumper" in path.kinds else i
    assert check_path(moved(path, j, 0.05, 0.0), 8)
    assert check_path(moved(path, len(path.points) - 1, 0.01, 0.0), 8)
    assert check_path(moved(path, 0, 0.01, 0.0), 8)


def test_refuses_a_reveal_removed_added_or_moved() -> None:
    path = shot_path(seed(3), 0, 1, 6)
    fewer = dataclasses.replace(path, reveals=path.reveals[:-1])
    assert check_path(fewer, 6) and check_path(fewer, 5)
    spare = next(s for s in range(16) if s not in {r.square for r in path.reveals})
    more = dataclasses.replace(path, reveals=(*path.reveals, Reveal(spare, path.length)))
    assert check_path(more, 6) and check_path(more, 7)
    late = dataclasses.replace(
        path, reveals=(*path.reveals[:-1], Reveal(path.reveals[-1].square, path.length))
    )
    assert check_path(late, 6)
    assert check_path(path, 5)  # the count the caller wanted is not the path's


def test_refuses_an_end_outside_any_pocket() -> None:
    path = shot_path(seed(4), 0, 4, 5)
    (ax, ay), (bx, by) = path.points[-2:]
    inside = (ax + (bx - ax) * 0.5, ay + (by - ay) * 0.5)
    on_table = dataclasses.replace(path, points=(*path.points[:-1], inside))
    assert any("not in a pocket" in e for e in check_path(on_table, 5))
    wrong = dataclasses.replace(path, pocket=next(p for p in POCKETS if p != path.pocket))
    assert check_path(wrong, 5)


def test_refuses_an_illegal_reflection_angle() -> None:
    path = a_path("wall")
    i = path.kinds.index("wall")
    (x, y), (nx, ny) = path.points[i], path.points[i + 1]
    # Turn the outgoing segment a little about the wall point (same length, new angle).
    angle = math.atan2(ny - y, nx - x) + 0.05
    length = math.dist((x, y), (nx, ny))
    points = list(path.points)
    points[i + 1] = (round(x + length * math.cos(angle), 6), round(y + length * math.sin(angle), 6))
    assert check_path(dataclasses.replace(path, points=tuple(points)), 8)


def test_refuses_a_path_through_a_bumper() -> None:
    path = shot_path(seed(5), 0, 0, 4)
    covered = dataclasses.replace(path, bumpers=tuple(sorted({*path.bumpers, path.pocket})))
    assert path.pocket not in path.bumpers
    assert any("runs through the bumper" in e for e in check_path(covered, 4))
    # The first crossing goes straight on through a bumper instead of bouncing off it.
    one = shot_path(seed(5), 0, 5, 3)
    assert one.kinds[1] == "bumper"
    (ax, ay), (bx, by) = one.points[:2]
    length = math.dist((ax, ay), (bx, by))
    end = (round(bx + DROP * (bx - ax) / length, 6), round(by + DROP * (by - ay) / length, 6))
    straight = dataclasses.replace(
        one,
        points=(one.points[0], end),
        kinds=("launch", "drop"),
        pocket=geometry.launch_legs()[5].pocket,
    )
    assert any("runs through the bumper" in e for e in check_path(straight, 3))


def test_refuses_a_bounce_off_a_bumper_not_shown() -> None:
    path = a_path("bumper")
    i = path.kinds.index("bumper")
    x, y = path.points[i]
    pocket = int(x) if y < 2 else 12 + int(x)
    hidden = dataclasses.replace(path, bumpers=tuple(b for b in path.bumpers if b != pocket))
    assert any("no bumper" in e for e in check_path(hidden, 8))


def test_refuses_wrong_kinds() -> None:
    path = a_path("wall")
    kinds = list(path.kinds)
    kinds[kinds.index("wall")] = "bumper"
    assert check_path(dataclasses.replace(path, kinds=tuple(kinds)), 8)
