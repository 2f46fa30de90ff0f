"""uvicorn's HTTP protocol with one change: the 400 it answers itself, for a request it cannot
parse (before any route runs), is in the API's JSON error shape like every other error."""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol


class JsonErrorsProtocol(HttpToolsProtocol):
    """httptools' protocol (uvicorn's default here) whose own 400 is JSON."""

    def send_400_response(self, msg: str) -> None:
        """Answer an unparsable request with 400 {"error": {"code", "message"}} and close."""
        error = {"code": "bad_http_request", "message": f"{msg} Send a valid HTTP/1.1 request."}
        body = json.dumps({"error": error}, separators=(",", ":")).encode()
        content = [STATUS_LINE[400]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()
