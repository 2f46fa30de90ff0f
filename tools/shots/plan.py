"""What `build.py shots` photographs: the sizes, each game's shots and the fewest plays that show
them, each play a composition of the game's own prize table (forced through test mode).

Nothing here names a game: a Bonus Game or a Prize Game shot is taken of a game whose
certification statistics count one (its `bonus_games` or `prize_game` feature), from a
composition whose books always show it; the ends come from the prize table's amounts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import games
from engine.game import Game
from engine.outcome import Composition


@dataclass(frozen=True)
class Size:
    """A browser window: CSS pixels and the device scale factor a device of that size has."""

    name: str
    width: int
    height: int
    scale: int

    @property
    def label(self) -> str:
        """How the contact sheet heads its column, e.g. '390x844 @3x' (ASCII: Pillow's own font)."""
        return f"{self.width}x{self.height} @{self.scale}x"


# A desktop window, two phones upright (a 3x and a 2x screen) and the first one on its side.
SIZES = (
    Size("desktop", 1280, 720, 1),
    Size("phone", 390, 844, 3),
    Size("small-phone", 360, 640, 2),
    Size("landscape", 844, 390, 3),
)

# Every shot, in the order of the contact sheet's rows, and how its row is labelled.
LABELS = {
    "splash": "Splash",
    "main": "Main Game",
    "bonus": "Bonus Game",
    "prize": "Prize Game",
    "money-back": "Money back (prize = price)",
    "big-win": "Big win (>= 10x price)",
    "top-prize": "Top prize",
}
SHOTS = tuple(LABELS)
# A shot taken during a play: the statistic that counts it, the words the narration says as it
# begins (then the shot waits for the player's next action to be offered).
DURING = {"bonus": ("bonus_games", "BONUS GAME"), "prize": ("prize_game", "PRIZE GAME UNLOCKED")}
BIG_WIN = 10  # a big win is at least this many times the price
SEEDS = tuple(bytes([n]) * 16 for n in (1, 2, 3))  # a composition shows a feature in all


@dataclass(frozen=True)
class Play:
    """One forced play: its composition, its prize and the shots it gives (in SHOTS order)."""

    composition: Composition
    prize_pence: int
    shots: tuple[str, ...]

    def phrases(self) -> tuple[tuple[str, str], ...]:
        """(shot, narrated words) of the shots taken during the play."""
        return tuple((shot, DURING[shot][1]) for shot in self.shots if shot in DURING)

    @property
    def end(self) -> str | None:
        """The shot taken when the play ends (FINISH offered), if any."""
        ends = [shot for shot in self.shots if shot not in DURING]
        return ends[0] if ends else None


@dataclass(frozen=True)
class GamePlan:
    """A game's plays; the first also gives the splash and the Main Game."""

    game: Game
    plays: tuple[Play, ...]

    @property
    def shots(self) -> tuple[str, ...]:
        """Every shot of the game, in SHOTS order."""
        taken = {"splash", "main"}.union(*(play.shots for play in self.plays))
        return tuple(shot for shot in SHOTS if shot in taken)


def end_shot(prize: int, price: int, top: int) -> str | None:
    """The end a prize shows: the price back, a big win, the top prize, or none of them."""
    if prize == top:
        return "top-prize"
    if prize >= BIG_WIN * price:
        return "big-win"
    return "money-back" if prize == price else None


def always_shows(game: Game, composition: Composition, feature: str) -> bool:
    """True when the game's books of this composition show the feature under every seed."""
    statistics = game.load_statistics()
    if feature not in statistics.FEATURES:
        return False
    model = game.table.model
    books = (game.book(model, composition, seed).as_dict() for seed in SEEDS)
    return all(statistics.features(book)[feature] for book in books)


def candidates(game: Game) -> list[tuple[Composition, int, frozenset[str]]]:
    """Each composition of the game's prize table that gives a shot, its prize and those shots."""
    table = game.table
    found = []
    for tier in table.tiers:
        end = end_shot(tier.prize_pence, table.price_pence, table.top_prize_pence)
        for composition, _weight in tier.compositions:
            gives = {end} if end else set()
            gives |= {s for s, (f, _) in DURING.items() if always_shows(game, composition, f)}
            if gives:
                found.append((composition, tier.prize_pence, frozenset(gives)))
    return found


def cover(found: Iterable[tuple[Composition, int, frozenset[str]]]) -> tuple[Play, ...]:
    """The fewest plays (greedily: the one giving most missing shots, then the smallest prize)
    that give every shot some candidate gives, each play at most one end."""
    pool = list(found)
    wanted = frozenset().union(*(gives for _, _, gives in pool))
    plays: list[Play] = []
    while wanted:
        composition, prize, gives = max(
            pool, key=lambda c: (len(c[2] & wanted), -c[1], -len(c[0].parts))
        )
        taken = gives & wanted
        plays.append(Play(composition, prize, tuple(s for s in SHOTS if s in taken)))
        wanted -= taken
    return tuple(plays)


def plan(game: Game) -> GamePlan:
    """The plays that photograph a game; a losing play when nothing in its table gives a shot."""
    plays = cover(candidates(game)) or (Play(Composition(), 0, ()),)
    return GamePlan(game, plays)


def plans() -> tuple[GamePlan, ...]:
    """The plan of every game on sale, in the registry's order."""
    return tuple(plan(game) for game in games.on_sale())
