"""Run the scenes natively with pygame-ce: a desktop window, or frames saved as PNG.

Input reaches Python the same way as in the browser: mouse and touch become Pointer
events, keys become Key events with DOM key names, and the App turns a tap on a control
into Activate. A window plays the frames' sound cues through pygame.mixer (pygame_sound.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import pygame

from backends.endpoint_shell import EndpointShell
from backends.pygame_art import load_art
from backends.pygame_backend import PygameCanvas
from backends.pygame_sound import SoundPlayer
from engine.ui.app import App, FrameResult, Scene
from engine.ui.games import beds, sounds
from engine.ui.input import Event, Key, Pointer, Resize

KEY_NAMES = {
    pygame.K_RETURN: "Enter",
    pygame.K_KP_ENTER: "Enter",
    pygame.K_SPACE: " ",
    pygame.K_ESCAPE: "Escape",
    pygame.K_BACKSPACE: "Backspace",  # (an amount typed on the Limits page)
    pygame.K_TAB: "Tab",
    pygame.K_LEFT: "ArrowLeft",
    pygame.K_RIGHT: "ArrowRight",
    pygame.K_UP: "ArrowUp",
    pygame.K_DOWN: "ArrowDown",
}


def translate_event(event: pygame.event.Event, size: tuple[int, int]) -> Event | None:
    """One pygame event as an engine.ui input event (None when it is not input)."""
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not event.touch:
        return Pointer("down", *event.pos)
    if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not event.touch:
        return Pointer("up", *event.pos)
    if event.type == pygame.MOUSEMOTION and not event.touch:
        return Pointer("move", *event.pos)
    if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
        kind = {pygame.FINGERDOWN: "down", pygame.FINGERUP: "up"}.get(event.type, "move")
        return Pointer(kind, event.x * size[0], event.y * size[1])  # type: ignore[arg-type]
    if event.type == pygame.KEYDOWN:
        name = KEY_NAMES.get(event.key)
        return Key(name if name else event.unicode) if (name or event.unicode) else None
    if event.type == pygame.VIDEORESIZE:
        return Resize(float(event.w), float(event.h))
    return None


def render_frames(
    scene: Scene,
    size: tuple[int, int],
    out: Path,
    *,
    density: float = 1.0,
    steps: Sequence[Iterable[Event]] = ((),),
    frame_ms: float = 1000 / 60,
    art: Mapping[str, pygame.Surface] | None = None,
) -> list[FrameResult]:
    """Headless: run one frame per step (feeding its events), save the last frame as PNG;
    with `art` (backends/pygame_art.py), the pictures drawn."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.init()
    surface = pygame.Surface((round(size[0] * density), round(size[1] * density)), pygame.SRCALPHA)
    canvas = PygameCanvas(surface, density, art)
    app = App(scene, size[0], size[1])
    results = [app.frame(i * frame_ms, list(events), canvas) for i, events in enumerate(steps)]
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    return results


def run_window(
    make_scene: Callable[[], Scene],
    size: tuple[int, int] = (1280, 720),
    shell: EndpointShell | None = None,
    open_page: Callable[[dict[str, str]], Scene] | None = None,
    art_folder: Path | None = None,
) -> None:
    """A resizable desktop window running the scenes until it is closed, with the art's
    atlases in art_folder. A scene's request to open another page of the site (the lobby, a
    game) switches to that page's first scene."""
    pygame.init()
    art = load_art(art_folder) if art_folder is not None else {}
    pygame.display.set_caption("Lottery instant-win games")
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    app = App(make_scene(), *size)
    sound = SoundPlayer(sounds(), beds())
    clock = pygame.time.Clock()
    replies: list[Event] = []
    while True:
        events, replies = replies, []
        for raw in pygame.event.get():
            if raw.type == pygame.QUIT:
                pygame.quit()
                return
            event = translate_event(raw, screen.get_size())
            if isinstance(event, Resize):
                screen = pygame.display.set_mode(
                    (int(event.width), int(event.height)), pygame.RESIZABLE
                )
            if event is not None:
                events.append(event)
        result = app.frame(pygame.time.get_ticks(), events, PygameCanvas(screen, 1.0, art))
        for text in result.narration:
            print(text, flush=True)
        sound.mix(result.music, result.volumes)
        sound.play(result.sounds)
        for request in result.requests:
            if request["op"] == "open" and open_page is not None:
                app.switch(open_page(dict(request.get("params") or {})))
        if shell is not None:
            replies = shell.answer(result.requests)
        pygame.display.flip()
        clock.tick(60)
