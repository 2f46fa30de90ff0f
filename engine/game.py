"""The game contract: everything one game provides, declared once (the registry: engine/games.py).

Each game package (engine/<package>/) exports one `GAME = Game(...)`. Everything that works on
games (math, pools, books, certify, the endpoint's catalogue, the UI, the shell) iterates the
registry instead of naming a game. Parts a test lab or a tool needs but the browser never
runs (the independent validator, the certification statistics) are named by module, so they
are imported only where they are used and the browser's game zip does not carry them; the
book builder and the replay are `Lazy`, imported on first use, so they travel in their game's
own zip (docs/build.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from engine import package_data
from engine.book import Book, Event
from engine.outcome import Composition

if TYPE_CHECKING:
    from fractions import Fraction

    from engine.math.table import PrizeTable

BookBuilder = Callable[[str, Composition, bytes], Book]
TABLE_FILE = "prize-table.toml"  # each game's prize table, in its package: the one source
# The same table parsed at build time (tools/build/dist.py), in the browser's game zip instead
# of the TOML: reading it needs no TOML parser there (docs/build.md).
BUILT_TABLE_FILE = "prize-table.json"


class Lazy:
    """A game's part named by module and attribute, imported on its first call: the registry
    imports every game's package, and a page that shows one game need not import (or, in the
    browser, download) the others' book builders and replays. tools/build/dist.py reads `module` to
    put it in the game's own zip."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._target: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._target is None:
            self._target = getattr(importlib.import_module(self.module), self.name)
        return self._target(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.module!r}, {self.name!r})"


CompositionCheck = Callable[[Composition], "str | None"]


@dataclass(frozen=True)
class Action:
    """What an event that waits for the player waits for: a press of `name`, or one of
    `choices` options (a Power Puck Shot arrow). A choice changes only what is drawn, never
    what the book reveals; docs/books.md says how it is recorded for a replay."""

    name: str
    choices: int = 0


class Replay(Protocol):
    """A game's replay state machine: the visible state after each event of a book."""

    events: tuple[Event, ...]

    def __len__(self) -> int: ...
    def state_at(self, index: int) -> Any: ...


class Validator(Protocol):
    """The independent validator module: `validate(book, choices) -> list of faults` (empty if
    sound). `choices` are the player's choices recorded beside the book (docs/books.md: event
    index -> choice); with them the validator also checks what they draw (Power Puck Shot's
    paths). A game whose player makes no choices ignores them."""

    def validate(
        self, book: Mapping[str, Any], choices: Mapping[int, int] | None = None
    ) -> list[str]: ...


class Examples(Protocol):
    """A game's examples for tests and benchmarks (tools only): GOLDEN, its golden books as
    (composition parts, seed hex, SHA-256 of the book's JSON), literal bytes that pin its
    published model; WIN, a winning entry's composition parts, which test mode can sell;
    CELEBRATION, a top-prize entry's parts (its biggest celebration), which test mode can sell
    too: the play `build.py bench --frames` measures; PRESSES, what its presses are called where
    its player's page counts them ("shots")."""

    GOLDEN: tuple[tuple[list[dict[str, Any]], str, str], ...]
    WIN: list[dict[str, Any]]
    CELEBRATION: list[dict[str, Any]]
    PRESSES: str


class Statistics(Protocol):
    """What a book shows, counted for certification: FEATURES and features(book) -> 0/1 each."""

    FEATURES: tuple[str, ...]

    def features(self, book: Mapping[str, Any]) -> dict[str, int]: ...


@dataclass(frozen=True, eq=False)
class Game:
    """One game: its facts (from its rules module) and the parts that build and check its plays.

    A game is on sale only when every part a play needs exists: a book builder, a replay, a
    validator and a presentation (its UI package under engine/ui/). The endpoint refuses to
    sell any other game.
    """

    rules: ModuleType
    package: str  # engine/<package>/ and, for its screens, engine/ui/<package>/
    check_composition: CompositionCheck
    event_types: tuple[str, ...] = ()
    waits: Mapping[str, Action] = field(default_factory=dict)
    build_book: BookBuilder | Lazy | None = None
    models: tuple[str, ...] = ()
    replay: Callable[[Book | Mapping[str, Any]], Replay] | Lazy | None = None
    validator: str | None = None  # module with validate(book)
    statistics: str | None = None  # module with FEATURES and features(book)
    presentation: str | None = None  # engine.ui.<package>: its screens, narration, cues
    examples: str | None = None  # module with GOLDEN and WIN (tests and benchmarks only)
    max_choices: int = 0  # the most choices a play can record (the endpoint's bound)

    @property
    def id(self) -> str:
        """The game id, e.g. 'lab-riches'."""
        return str(self.rules.GAME_ID)

    @property
    def name(self) -> str:
        """The game's name as players see it."""
        return str(self.rules.NAME)

    @property
    def price_pence(self) -> int:
        """The price of one play."""
        return int(self.rules.PRICE_PENCE)

    @property
    def top_prize_pence(self) -> int:
        """The top prize."""
        return int(self.rules.TOP_PRIZE_PENCE)

    @property
    def published_figures(self) -> tuple[Fraction, Fraction]:
        """The procedure's overall odds (1 in X) and expected payout percentage, exactly."""
        # Imported here: a game's page shows them only when Rules and Prizes opens (the lobby
        # on its cards), and fractions' import was a tenth of a game's (docs/build.md).
        from fractions import Fraction

        return Fraction(self.rules.PUBLISHED_ODDS_ONE_IN), Fraction(
            self.rules.PUBLISHED_RTP_PERCENT
        )

    @property
    def choice_values(self) -> int:
        """How many values a player's choice takes (0 to n-1): the most any of its actions
        offers (`waits`), 0 when the game takes no choices. The endpoint checks this range."""
        return max((action.choices for action in self.waits.values()), default=0)

    @property
    def on_sale(self) -> bool:
        """True when a play of this game can be bought, shown and checked end to end."""
        parts = (self.build_book, self.replay, self.validator, self.statistics, self.presentation)
        return all(part is not None for part in parts)

    def lazy_modules(self) -> tuple[str, ...]:
        """The modules of its parts imported on first use (Lazy): what must travel with it."""
        parts = (self.build_book, self.replay)
        return tuple(part.module for part in parts if isinstance(part, Lazy))

    @property
    def home(self) -> str:
        """The game's engine package, where its rules module lives ('engine.lab_riches'; a game
        the tests register lives in theirs)."""
        return self.rules.__name__.rpartition(".")[0]

    def table_text(self) -> str:
        """The TOML text of the game's prize table (<home>/prize-table.toml)."""
        return package_data.read(self.home, TABLE_FILE).decode("utf-8")

    def built_table(self) -> bytes | None:
        """The prize table as the build parsed it (JSON: BUILT_TABLE_FILE), when the package
        ships one (the browser's game zip does, instead of the TOML); None in the source tree."""
        try:
            return package_data.read(self.home, BUILT_TABLE_FILE)
        except OSError:
            return None

    @cached_property
    def table(self) -> PrizeTable:
        """The validated prize table, read once from its TOML file."""
        from engine.math.table import load

        return load(self)

    def book(self, model: str, composition: Composition, seed: bytes) -> Book:
        """Build the book of a play; ValueError when the game has no book builder yet."""
        if self.build_book is None:
            raise ValueError(f"{self.name} has no book builder yet")
        return self.build_book(model, composition, seed)

    def load_validator(self) -> Validator:
        """The independent validator module (imported on first use: tools only)."""
        return self._module(self.validator, "independent validator")  # type: ignore[return-value]

    def load_examples(self) -> Examples:
        """Its golden books and winning entry (imported on first use: tests and benchmarks)."""
        return self._module(self.examples, "examples")  # type: ignore[return-value]

    def load_statistics(self) -> Statistics:
        """The certification statistics module (imported on first use: tools only)."""
        return self._module(self.statistics, "statistics")  # type: ignore[return-value]

    def _module(self, name: str | None, what: str) -> ModuleType:
        if name is None:
            raise ValueError(f"{self.name} has no {what} yet")
        return importlib.import_module(name)

    def action_for(self, event: Event) -> Action | None:
        """The player action this event waits for, or None when it plays by itself."""
        return self.waits.get(str(event["type"]))
