"""£500K Power Puck Shot: an independent check of a book (parsed JSON), re-applying the rules.

Written from the procedure, docs/books.md and docs/games/power-puck-shot.md only: it imports the
published facts (rules.py) and nothing of the generator or the replay, and re-derives every
count itself, under the rules of the model the book names (model 2: each Bonus Puck reveals 1-3
awards and the composition's bonus part is every award shown; model 3: 1-16, and the bonus part
is the awards the win needs, all shown). `validate(book)` returns the faults found (empty when
the book is sound). With the arrows a player chose (`choices`: event index -> arrow), it also
re-checks every shot's path (engine/power_puck_shot/paths.py `check_path`, which re-checks a
path from the table's rules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.power_puck_shot import rules

MAIN = {"bonus", "prize"} | {f"square:{c}" for c in rules.COLOURS}
BOOSTABLE = [c for c in rules.COLOURS if c not in rules.UNBOOSTED]
BONUS = (
    {"extra", "power", "prize"}
    | {f"booster:{c}" for c in BOOSTABLE}
    | {f"squares:{c}:{n}" for c in BOOSTABLE for n in rules.EXTRA_SQUARES}
)
PRIZE = {f"pot:{amount}" for amount in rules.PRIZE_PUCK_AMOUNTS}
MAX_REVEALS = 16  # docs/games/power-puck-shot.md: a shot reveals 1 to 16 pips
MODEL_2 = "power-puck-shot/2"  # its Bonus Pucks reveal 1-3 awards; its bonus part is exact


class _Play:
    """The count of everything a play has shown so far, kept by the validator itself."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.squares: Counter[str] = Counter()
        self.boosts: Counter[str] = Counter()
        self.won: dict[str, int] = {}
        self.meter = 0
        self.pucks = 0
        self.power = 0
        self.shots = 0
        self.awards: Counter[str] = Counter()  # every Bonus Game award shown
        self.games = 0
        self.bonus_pucks = 0
        self.faults: list[str] = []

    def fault(self, where: int, text: str) -> None:
        self.faults.append(f"event {where}: {text}")


def _next(events: list[Mapping[str, Any]], at: int, kind: str, play: _Play) -> bool:
    if at >= len(events) or events[at].get("type") != kind:
        play.fault(at, f"expected a {kind} event")
        return False
    return True


def _shot(play: _Play, event: Mapping[str, Any], at: int, game: str, allowed: set[str]) -> list:
    """Check a shot's number, game and reveals; return its reveals."""
    if event.get("type") != "shot" or event.get("game") != game:
        play.fault(at, f"expected a {game} shot")
        return []
    if event.get("shot") != play.shots:
        play.fault(at, f"shot number {event.get('shot')}, expected {play.shots}")
    play.shots += 1
    reveals = event.get("reveals")
    if not isinstance(reveals, list) or not 1 <= len(reveals) <= MAX_REVEALS:
        play.fault(at, f"a shot reveals 1-{MAX_REVEALS} pips, got {reveals!r}")
        return []
    for reveal in reveals:
        if reveal not in allowed:
            play.fault(at, f"a {game} pip cannot reveal {reveal!r}")
    return reveals


def _fill(play: _Play, colour: str, n: int, at: int, filled: list[str]) -> None:
    if colour in play.won:
        play.fault(at, f"{colour} squares after its row was full")
    before = play.squares[colour]
    play.squares[colour] += n
    if play.squares[colour] > rules.SQUARES_PER_ROW:
        play.fault(at, f"the {colour} row has {play.squares[colour]} squares")
    elif before < rules.SQUARES_PER_ROW == play.squares[colour]:
        filled.append(colour)


def _row_wins(events: list[Mapping[str, Any]], at: int, play: _Play, filled: list[str]) -> int:
    for colour in filled:
        if not _next(events, at, "row_won", play):
            return at
        event = events[at]
        pence = rules.row_amount(colour, play.boosts[colour])
        if (event.get("colour"), event.get("pence")) != (colour, pence):
            play.fault(at, f"the {colour} row fills and pays {pence}, the book says {dict(event)}")
        play.won[colour] = pence
        at += 1
    return at


def _bonus_game(events: list[Mapping[str, Any]], at: int, play: _Play, motifs: int) -> int:
    """Check a Bonus Game from its bonus_start; the index after its bonus_end."""
    pucks = rules.BONUS_PUCKS_FOR_MOTIFS[min(motifs, max(rules.BONUS_PUCKS_FOR_MOTIFS))]
    start = events[at]
    if start.get("pucks") != pucks or start.get("motifs") != motifs:
        play.fault(at, f"{motifs} Bonus motifs give {pucks} Bonus Pucks, the book says {start}")
    at += 1
    play.games += 1
    play.bonus_pucks += pucks
    extra = power = 0
    for _ in range(pucks):
        if at >= len(events):
            play.fault(at, "the Bonus Game is cut short")
            return at
        awards = _shot(play, events[at], at, "bonus", BONUS)
        most = rules.MAX_AWARDS_PER_BONUS_PUCK if play.model == MODEL_2 else MAX_REVEALS
        if not 1 <= len(awards) <= most:
            play.fault(at, f"a Bonus Puck reveals 1-{most} awards, got {len(awards)}")
        for award in awards:
            play.awards[award] += 1
            kind, _, rest = award.partition(":")
            if kind == "booster":
                play.boosts[rest] += 1
                if play.boosts[rest] > rules.MAX_BOOSTS:
                    play.fault(at, f"the {rest} row boosted {play.boosts[rest]} times")
                if rest in play.won:
                    play.fault(at, f"the {rest} row boosted after it was won")
            elif kind == "squares":
                colour, n = rest.split(":")
                filled: list[str] = []
                _fill(play, colour, int(n), at, filled)
                if filled:
                    play.fault(at, "a Bonus Game award filled a row")  # docs: rows fill in play
            elif award == "extra":
                extra += 1
            elif award == "power":
                power += 1
            elif award == "prize":
                play.meter += 1
        at += 1
    if not _next(events, at, "bonus_end", play):
        return at
    end = events[at]
    if (end.get("extra_pucks"), end.get("power_pucks")) != (extra, power):
        play.fault(at, f"the Bonus Game awarded {extra} extra and {power} Power Pucks: {end}")
    play.pucks += extra
    play.power += power
    return at + 1


def _main_game(events: list[Mapping[str, Any]], play: _Play) -> int:
    at = 1
    while play.pucks + play.power > 0:
        if at >= len(events):
            play.fault(at, "the book ends with Pucks left")
            return at
        event = events[at]
        power = play.power > 0
        if bool(event.get("power")) != power:
            play.fault(at, "a Power Puck is played first, and only when there is one")
        if power:
            play.power -= 1
        else:
            play.pucks -= 1
        reveals = _shot(play, event, at, "main", MAIN)
        times = 2 if power else 1
        filled: list[str] = []
        for reveal in reveals:
            if reveal.startswith("square:"):
                _fill(play, reveal[len("square:") :], times, at, filled)
            elif reveal == "prize":
                play.meter += times
        at = _row_wins(events, at + 1, play, filled)
        motifs = reveals.count("bonus") * times
        unlocked = at < len(events) and events[at].get("type") == "bonus_start"
        if (motifs >= min(rules.BONUS_PUCKS_FOR_MOTIFS)) != unlocked:
            play.fault(at, f"{motifs} Bonus motifs collected, Bonus Game shown: {unlocked}")
        if unlocked:
            at = _bonus_game(events, at, play, motifs)
    return at


def validate(book: Mapping[str, Any], choices: Mapping[int, int] | None = None) -> list[str]:
    """Every fault of a Power Puck Shot book (empty when it is sound)."""
    model = str(book.get("model"))
    if model not in rules.BOOK_MODELS:
        return [f"unknown model {model!r}, not one of {rules.BOOK_MODELS}"]
    play = _Play(model)
    events = list(book.get("events") or [])
    if not events or events[0].get("type") != "start":
        return ["event 0: a book starts with its start event"]
    for i, event in enumerate(events):
        if event.get("index") != i:
            play.fault(i, f"index {event.get('index')}, expected {i}")
    play.pucks = rules.START_PUCKS
    if events[0].get("pucks") != rules.START_PUCKS:
        play.fault(0, f"a play starts with {rules.START_PUCKS} Pucks")
    at = _main_game(events, play)
    if play.meter > rules.METER_SEGMENTS:
        play.fault(at, f"{play.meter} Prize Game symbols on a meter of {rules.METER_SEGMENTS}")
    pot = 0
    if play.meter >= rules.SYMBOLS_TO_UNLOCK and _next(events, at, "prize_start", play):
        pucks = rules.PRIZE_PUCKS_FOR_SYMBOLS[min(play.meter, rules.METER_SEGMENTS)]
        if (events[at].get("pucks"), events[at].get("symbols")) != (pucks, play.meter):
            play.fault(at, f"{play.meter} symbols give {pucks} Prize Game Pucks: {events[at]}")
        at += 1
        for _ in range(pucks):
            if at >= len(events):
                break
            (reveal, *more) = _shot(play, events[at], at, "prize", PRIZE) or [""]
            if more:
                play.fault(at, "a Prize Game Puck reveals one amount")
            pot += int(reveal[len("pot:") :]) if reveal in PRIZE else 0
            at += 1
    if _next(events, at, "end", play):
        end = events[at]
        rows = sum(play.won.values())
        if (end.get("rows"), end.get("pot"), end.get("total")) != (rows, pot, rows + pot):
            play.fault(at, f"rows {rows} + pot {pot}, the end says {dict(end)}")
        if at != len(events) - 1:
            play.fault(at, "events after the end")
    if book.get("prize_pence") != sum(play.won.values()) + pot:
        play.fault(at, f"the book's prize {book.get('prize_pence')} is not what the play shows")
    play.faults += _composition(book, play, pot)
    if choices is not None:  # the arrows chosen: every shot's path is re-checked
        play.faults += _paths(book, events, choices)
    return play.faults


def _composition(book: Mapping[str, Any], play: _Play, pot: int) -> list[str]:
    """The book shows exactly its composition: the rows and their boosts, the pot."""
    faults = []
    parts = list(book.get("composition") or [])
    rows = {p.get("colour"): p.get("pence") for p in parts if p.get("feature") == "row"}
    if rows != play.won:
        faults.append(f"composition rows {rows}, the play wins {play.won}")
    pots = [p.get("pence") for p in parts if p.get("feature") == "pot"]
    if sum(pots) != pot:
        faults.append(f"composition pot {pots}, the play's pot {pot}")
    bonus: Mapping[str, Any] = next((p for p in parts if p.get("feature") == "bonus"), {})
    declared: Counter[str] = Counter()
    for colour in filter(None, str(bonus.get("boosters", "")).split(",")):
        declared[f"booster:{colour}"] += 1
    for item in filter(None, str(bonus.get("squares", "")).split(",")):
        declared[f"squares:{item}"] += 1
    for field, award in (("extra_pucks", "extra"), ("power_pucks", "power"), ("symbols", "prize")):
        declared[award] += int(bonus.get(field, 0))
    shown = (play.games, play.bonus_pucks, +play.awards)
    if play.model == MODEL_2:  # the bonus part is every Bonus Game award the play shows
        if shown != (int(bonus.get("games", 0)), int(bonus.get("pucks", 0)), +declared):
            faults.append(f"the composition's Bonus Games {dict(bonus)}, the play shows {shown}")
    elif declared - play.awards or (bonus and not play.games):  # the awards the win needs
        faults.append(f"the composition's Bonus Game awards {dict(bonus)} are not all shown")
    return faults


def _paths(
    book: Mapping[str, Any], events: list[Mapping[str, Any]], arrows: Mapping[int, int]
) -> list[str]:
    """Every shot's path, for the arrow chosen, is a legal path over exactly its pips."""
    from engine.power_puck_shot.paths import check_path, shot_path

    seed = bytes.fromhex(str(book.get("seed")))
    faults = []
    for event in events:
        if event.get("type") != "shot":
            continue
        arrow = arrows.get(int(event["index"]))
        if arrow is None:
            faults.append(f"event {event['index']}: no arrow chosen for this shot")
            continue
        reveals = len(event["reveals"])
        try:
            path = shot_path(seed, int(event["shot"]), arrow, reveals)
        except ValueError as exc:  # no path passes that many pips, or no such arrow
            faults.append(f"event {event['index']}: no path: {exc}")
            continue
        faults += [f"event {event['index']}: {f}" for f in check_path(path, reveals)]
    return faults
