"""uvicorn's HTTP protocol (httptools) with the limits it lacks on a request's head, and the
answers it gives itself in the API's JSON error shape.

uvicorn bounds neither the size of a request's head nor the time it may take to arrive with
httptools (its h11 limit is h11's alone, and it has no header timeout: uvicorn issue #157), so
a 64 MiB header was read into memory and a client sending a byte now and then held its
connection for good. Here the head (request line and headers) has at most `max_header_bytes`
bytes (431), `max_headers` header lines (431), and must be whole within `header_timeout_seconds`
of the connection opening or of its first byte (408); and its body (16 KiB at most) within as
long again of the head (408: a client dripping a body's bytes held a route for good before);
docs/endpoint.md.
"""

from __future__ import annotations

import asyncio
import functools
import json

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from web.endpoint.settings import Settings


@functools.cache
def _settings() -> Settings:
    # uvicorn makes the protocol (in each worker process) with no way to hand it our settings:
    # they come from the same environment create_app reads.
    return Settings.from_env()


class RefusedHead(Exception):
    """The request's head broke a limit: the answer is made once the parser has stopped."""


class JsonErrorsProtocol(HttpToolsProtocol):
    """httptools' protocol (uvicorn's default here) with bounded request heads and JSON
    errors (400, 408, 431)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        settings = _settings()
        self.max_header_bytes = settings.max_header_bytes
        self.max_headers = settings.max_headers
        self.header_timeout = settings.header_timeout_seconds
        self.awaiting_head = True  # between requests, or within one's head
        self.head_bytes = 0  # bytes read since the head began (one read's worth at most beyond)
        self.header_count = 0
        self.refusal: tuple[int, str, str] | None = None
        self.head_started: float | None = None  # when the head now awaited began (loop time)
        self.head_timer: asyncio.TimerHandle | None = None
        self.body_timer: asyncio.TimerHandle | None = None
        self.body_started = 0.0  # when the body now awaited began (loop time)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock: a connection that sends no whole head in time is closed."""
        super().connection_made(transport)
        self.head_started = self.loop.time()
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the head's and the body's clocks with the connection."""
        self._disarm_head_timer()
        self._disarm_body_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse the data, never reading more than max_header_bytes into one request's head."""
        if self.refusal is not None:
            return  # refused: what else comes is dropped until the connection closes
        while self.awaiting_head and self.head_bytes + len(data) > self.max_header_bytes:
            room = self.max_header_bytes - self.head_bytes
            self._feed(data[:room])
            data = data[room:]
            if self.refusal is not None or self.transport.is_closing():
                return
            if self.awaiting_head:  # the head is still not whole at its limit
                message = f"Request heads are at most {self.max_header_bytes} bytes."
                self._refuse(431, "headers_too_large", message)
                return
        self._feed(data)
        if (
            self.head_started is not None
            and self.head_timer is None
            and not self.transport.is_closing()
        ):
            # A head split over reads (most come whole in one: no timer for those)
            when = self.head_started + self.header_timeout
            self.head_timer = self.loop.call_at(when, self._head_timed_out)
        if not self.awaiting_head and self.body_timer is None and not self.transport.is_closing():
            # A body split over reads (most come whole with their head: no timer for those)
            when = self.body_started + self.header_timeout
            self.body_timer = self.loop.call_at(when, self._body_timed_out)

    def _feed(self, data: bytes) -> None:
        if self.awaiting_head:
            self.head_bytes += len(data)
        super().data_received(data)

    def on_message_begin(self) -> None:
        """A request's first byte: its head must be whole within the header timeout."""
        super().on_message_begin()
        self.header_count = 0
        if self.head_started is None:
            self.head_started = self.loop.time()

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count the head's header lines."""
        self.header_count += 1
        if self.header_count > self.max_headers:
            message = f"Requests carry at most {self.max_headers} header lines."
            self.refusal = (431, "headers_too_large", message)
            raise RefusedHead(message)  # stops the parser; answered by send_400_response
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is whole: stop its clock, count the body no more, and note when the body
        began (its clock starts if it is not whole in this read)."""
        self._disarm_head_timer()
        self.head_started = None
        self.awaiting_head = False
        self.head_bytes = 0
        self.body_started = self.loop.time()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request is whole: what comes next is the next request's head."""
        self._disarm_body_timer()
        super().on_message_complete()
        self.awaiting_head = True
        self.head_bytes = 0

    def send_400_response(self, msg: str) -> None:
        """Answer an unparsable request with 400 bad_http_request (or a head over the limits
        with its 431), in the error shape, and close."""
        if self.refusal is not None:
            self._answer(*self.refusal)
            return
        self._answer(400, "bad_http_request", f"{msg} Send a valid HTTP/1.1 request.")

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.refusal = (status, code, message)
        self.logger.warning("Refused a request's head: %s", message)
        self._answer(status, code, message)

    def _answer(self, status: int, code: str, message: str) -> None:
        self._disarm_head_timer()
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # A response is under way (the refused head was pipelined behind it): let it end,
            # then close, reading nothing more.
            self.cycle.keep_alive = False
            self.flow.pause_reading()
            return
        self._write_error(status, code, message)

    def _write_error(self, status: int, code: str, message: str) -> None:
        """Write an error answer in the API's shape and close the connection."""
        error = {"code": code, "message": message}
        body = json.dumps({"error": error}, separators=(",", ":")).encode()
        content = [STATUS_LINE[status]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"x-content-type-options: nosniff\r\n",
                b"cache-control: no-store\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self.head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _disarm_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _body_timed_out(self) -> None:
        """The body did not arrive in time: 408 and close, unless the route has begun its
        answer without it (then the connection closes when that answer ends)."""
        self.body_timer = None
        if self.transport.is_closing():
            return
        message = f"The request's body must arrive within {self.header_timeout:g} seconds."
        self.logger.info("Closed a connection: %s", message)
        self.refusal = (408, "request_timeout", message)  # what else comes is dropped
        if self.cycle is not None and self.cycle.response_started:
            self.cycle.keep_alive = False
            self.flow.pause_reading()
            return
        if self.cycle is not None:  # the route waiting for its body is told the client left
            self.cycle.disconnected = True  # (so its answer, should it make one, goes nowhere)
            self.cycle.message_event.set()
        self._write_error(408, "request_timeout", message)

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self._arm_head_timer()  # the wait is the server's (a pipelined head), not the client's
            return
        if self.head_bytes == 0:  # nothing of a request came: nothing to answer
            self.transport.close()
            return
        message = f"The request's head must arrive within {self.header_timeout:g} seconds."
        self.refusal = (408, "request_timeout", message)
        self.logger.info("Closed a connection: %s", message)
        self._answer(*self.refusal)
