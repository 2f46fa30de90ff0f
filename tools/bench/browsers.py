"""The browsers players have besides Chromium, as Debian ships them, driven by Selenium:
Firefox ESR over WebDriver BiDi (its own Remote Agent, no geckodriver: Selenium's BiDi modules on
the socket Firefox opens) and WebKitGTK (MiniBrowser) over classic WebDriver (WebKitWebDriver)
under Xvfb. Each gives a Tab: open a URL, reload, run an async JS function, click at a point.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import urllib3
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.bidi.browser import Browser
from selenium.webdriver.common.bidi.browsing_context import BrowsingContext
from selenium.webdriver.common.bidi.input import Input
from selenium.webdriver.common.bidi.script import Script
from selenium.webdriver.common.bidi.session import Session
from selenium.webdriver.remote.websocket_connection import WebSocketConnection
from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
from selenium.webdriver.webkitgtk.service import Service as WebKitService

FIREFOX = "firefox-esr"
WEBKIT_DRIVER = "WebKitWebDriver"
XVFB = "Xvfb"
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
WIDTH, HEIGHT = 1280, 720
# How long a WebKitWebDriver command may take before it is given up: a new session on a
# loaded machine sometimes waited for ever on a MiniBrowser that never came up.
WEBKIT_COMMAND_S = 120
# WebKitWebDriver now and then answers a script with "unknown error" and no message at all (once
# in about twenty CI runs of the smoke suite, mid-play; the cause is not known): the script is
# asked again, this many times, a second apart; if the page was lost, the test still fails. Every
# script the suite runs only reads the page or sets test-mode state to the same value, so running
# one twice changes nothing.
WEBKIT_SCRIPT_TRIES = 3
# The page calls `fn(arg)` (an async function's source) and answers its result as JSON.
WRAP = "async (a) => JSON.stringify(await ({fn})(JSON.parse(a)) ?? null)"


def missing(engine: str) -> list[str]:
    """What this machine lacks to run the engine (empty when it can)."""
    needs = {"firefox": [FIREFOX], "webkit": [WEBKIT_DRIVER, XVFB]}[engine]
    lacking = [name for name in needs if shutil.which(name) is None]
    if engine == "webkit" and not MINIBROWSER.exists():
        lacking.append(str(MINIBROWSER))
    return lacking


class Tab(Protocol):
    """One page in a fresh profile (its own cookies and storage): a new player."""

    def open(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def js(self, fn: str, arg: Any = None) -> Any: ...
    def click_at(self, x: float, y: float) -> None: ...
    def close(self) -> None: ...


class FirefoxTab:
    """A tab in its own user context of one Firefox, over the BiDi socket."""

    def __init__(self, conn: WebSocketConnection) -> None:
        self._conn = conn
        self._user = Browser(conn).create_user_context()
        self.context = BrowsingContext(conn).create(type="tab", user_context=self._user)
        viewport = {"width": WIDTH, "height": HEIGHT}
        BrowsingContext(conn).set_viewport(context=self.context, viewport=viewport)

    def open(self, url: str) -> None:
        BrowsingContext(self._conn).navigate(context=self.context, url=url, wait="complete")

    def reload(self) -> None:
        BrowsingContext(self._conn).reload(context=self.context, wait="complete")

    def js(self, fn: str, arg: Any = None) -> Any:
        answer = Script(self._conn).call_function(
            function_declaration=WRAP.format(fn=fn),
            await_promise=True,
            target={"context": self.context},
            arguments=[{"type": "string", "value": json.dumps(arg)}],
        )
        if answer.get("type") == "exception":
            raise AssertionError(f"in the page: {answer['exceptionDetails'].get('text')}")
        return json.loads(answer["result"]["value"])

    def click_at(self, x: float, y: float) -> None:
        move = {"type": "pointerMove", "x": round(x), "y": round(y)}
        press = [move, {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        mouse = {"type": "pointer", "id": "mouse", "actions": press}
        Input(self._conn).perform_actions(context=self.context, actions=[mouse])

    def close(self) -> None:
        Browser(self._conn).remove_user_context(user_context=self._user)


class WebKitTab:
    """A MiniBrowser of its own (a fresh WebKitWebDriver session) on the Xvfb display."""

    def __init__(self, display: str) -> None:
        options = WebKitOptions()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        # The worker's OffscreenCanvas drawn on the processor, not through GL (Mesa's llvmpipe on
        # Xvfb here): a worker thread that had drawn through GL aborted its web process as it
        # ended (libglvnd's "dispatch->currentThreads >= 0", from a core dump), one of the web
        # process's crashes this suite met; docs/build.md, "Every browser a player has".
        options.add_argument("--enable-2d-canvas-acceleration=false")
        # What WebKitWebDriver and its MiniBrowser print (a web process's crash among it), kept
        # for the tab's life and added to any error a script meets.
        made, name = tempfile.mkstemp(prefix="lottery-webkit-", suffix=".log")
        os.close(made)  # Selenium opens it by name
        self.log = Path(name)
        service = WebKitService(
            executable_path=shutil.which(WEBKIT_DRIVER),
            env={**os.environ, "DISPLAY": display},
            log_output=str(self.log),
        )
        # Selenium's commands wait for the socket's default timeout (none): bound them.
        before = socket.getdefaulttimeout()
        socket.setdefaulttimeout(WEBKIT_COMMAND_S)
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        finally:
            socket.setdefaulttimeout(before)
        self.driver.set_window_size(WIDTH, HEIGHT)
        self.driver.set_script_timeout(60)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def js(self, fn: str, arg: Any = None) -> Any:
        script = (
            "const done = arguments[1];"
            f"({WRAP.format(fn=fn)})(arguments[0]).then(done, (e) => done("
            "JSON.stringify({page_error: String(e)})));"
        )
        for tries_left in range(WEBKIT_SCRIPT_TRIES - 1, -1, -1):
            try:
                answer = json.loads(self.driver.execute_async_script(script, json.dumps(arg)))
                break
            except WebDriverException as error:
                if error.msg or not tries_left:
                    error.add_note(self.printed())
                    raise
                print(f"WebKitWebDriver answered a script with no message ({error!r}): again")
                time.sleep(1)
        if isinstance(answer, dict) and "page_error" in answer:
            raise AssertionError(f"in the page: {answer['page_error']}")
        return answer

    def click_at(self, x: float, y: float) -> None:
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(x), round(y)).click()
        actions.perform()

    def printed(self, lines: int = 60) -> str:
        """The last lines WebKitWebDriver and MiniBrowser printed."""
        tail = self.log.read_text(errors="replace").splitlines()[-lines:]
        return "WebKitWebDriver and MiniBrowser printed:\n" + "\n".join(tail)

    def close(self) -> None:
        try:
            self.driver.quit()  # stops WebKitWebDriver even when its session was lost
        except WebDriverException as lost:
            print(f"WebKitWebDriver's session ended with {lost!r}")
        finally:
            self.log.unlink(missing_ok=True)


def _reader(stream: Any, found: list[str], ready: threading.Event) -> None:
    """Drain Firefox's stderr (so it never blocks on a full pipe), noting the BiDi address."""
    for line in stream:
        match = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
        if match:
            found.append(match.group(1))
            ready.set()
    ready.set()


@contextmanager
def firefox() -> Iterator[Any]:
    """Firefox ESR, headless, its Remote Agent on a free port; yields a maker of tabs."""
    profile = tempfile.mkdtemp(prefix="lottery-firefox-")
    command = [FIREFOX, "--headless", "--no-remote", "--profile", profile]
    process = subprocess.Popen(
        [*command, "--remote-debugging-port=0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    found: list[str] = []
    ready = threading.Event()
    threading.Thread(target=_reader, args=(process.stderr, found, ready), daemon=True).start()
    conn = None
    try:
        ready.wait(60)
        assert found, "Firefox ESR did not open its WebDriver BiDi socket"
        conn = WebSocketConnection(found[0] + "/session", 60, 0.02)
        Session(conn).new({"alwaysMatch": {}})
        yield lambda: FirefoxTab(conn)
    finally:
        if conn is not None:
            conn.close()
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)


def _webkit_tab(display: str) -> WebKitTab:
    """A new WebKitGTK tab; once more if its MiniBrowser did not come up in time."""
    try:
        return WebKitTab(display)
    except urllib3.exceptions.TimeoutError:
        return WebKitTab(display)


@contextmanager
def webkit() -> Iterator[Any]:
    """An Xvfb display of its own (a free number); yields a maker of WebKitGTK tabs."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", f"{WIDTH}x{HEIGHT + 80}x24", "-nolisten",
         "tcp"],
        pass_fds=[write],
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    try:
        number = os.read(read, 16).decode().strip()
        assert number, "Xvfb gave no display"
        yield lambda: _webkit_tab(":" + number)
    finally:
        os.close(read)
        xvfb.terminate()
        xvfb.wait(30)


ENGINES = {"firefox": firefox, "webkit": webkit}


def wait_for(tab: Tab, fn: str, arg: Any = None, timeout: float = 60) -> Any:
    """Poll `fn(arg)` in the page until it answers something truthy; that answer."""
    deadline = time.monotonic() + timeout
    while True:
        answer = tab.js(fn, arg)
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {fn}")
        time.sleep(0.05)
