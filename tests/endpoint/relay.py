"""A TCP relay on loopback to the test's PostgreSQL, which a test cuts, hangs or fails over
(tests/endpoint/store/test_lost_database.py, test_lost_database_routes.py)."""

from __future__ import annotations

import contextlib
import socket
import threading


class Relay:
    """A TCP relay on loopback to a database server; `cut` ends every connection through it
    and refuses new ones (as a restarting server or a broken network does), `hang` ends them
    and takes new ones without ever answering (as a stopped or swamped server does), `mend`
    lets them through again. `fail_over` ends only their server's side: each client finds its
    connection dead when it next sends on it (as after a failover, where the new server answers
    an old connection's next packet with a reset), not before; new ones go through.
    `lose_commit_answer` lets the next COMMIT through and loses its answer with the link."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.open = True
        self.hanging = False
        self._live: list[socket.socket] = []
        self._servers: list[socket.socket] = []
        self._silent: set[socket.socket] = set()  # ended by fail_over: their client not told
        self._commit_armed = False
        self._commit_lost: set[socket.socket] = set()  # servers whose next answer is dropped
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if self.hanging:
                with self._lock:
                    self._live.append(client)  # open, and never a byte back
                continue
            if not self.open:
                client.close()
                continue
            server = socket.create_connection(self.target)
            with self._lock:
                self._live += [client, server]
                self._servers.append(server)
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if source in self._commit_lost:  # the COMMIT's answer: never delivered
                    for end in (source, sink):  # shut down, so the other pipe's recv ends too
                        with contextlib.suppress(OSError):
                            end.shutdown(socket.SHUT_RDWR)
                    break
                if self._commit_armed and b"COMMIT\x00" in data:
                    self._commit_armed = False
                    self._commit_lost.add(sink)  # before the server can answer it
                sink.sendall(data)
        except OSError:
            pass
        if source in self._silent:  # the server's side ended: its client learns when it sends
            source.close()
            return
        for end in (source, sink):
            end.close()

    def cut(self) -> None:
        self.open = False
        with self._lock:
            for end in self._live:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
            self._live.clear()
            self._servers.clear()

    def fail_over(self) -> None:
        with self._lock:
            self._silent.update(self._servers)
            for server in self._servers:
                with contextlib.suppress(OSError):
                    server.shutdown(socket.SHUT_RDWR)
            self._servers.clear()

    def lose_commit_answer(self) -> None:
        """The next COMMIT sent through the relay reaches the server (which commits), and its
        answer is lost with the connection: the client learns the link broke, not the outcome."""
        self._commit_armed = True

    def hang(self) -> None:
        self.cut()
        self.hanging = True

    def mend(self) -> None:
        self.open, self.hanging = True, False

    def close(self) -> None:
        self.cut()
        self.listener.close()
