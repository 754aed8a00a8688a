"""How the class server takes connections: a bounded number per client address, and no busy loop when the
process has no file handle left.

Tornado's accept handler lets an `EMFILE` from `accept()` escape to the loop, which logs it with its traceback and,
the listening socket being still readable, calls it again at once: a process out of file handles spent its CPU
writing hundreds of thousands of log lines while its pages waited. Here a failed accept stops accepting for
`ACCEPT_PAUSE` seconds (the new connections wait in the kernel's queue), says so in one log line per burst, and the
connections the server has are served meanwhile.

A client address may hold `per_address` connections at once (pages, websockets, silent sockets alike); one more
is answered `429` with the reason and closed. The teacher's own machine is not counted (`THIS_MACHINE`): the
benchmarks and a notebook's bots open hundreds of connections from it.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any

import tornado.httpserver
import tornado.iostream
from tornado.ioloop import IOLoop

log = logging.getLogger("tabletop_edu.classroom")

#: Seconds the server stops accepting after `accept()` found no file handle left.
ACCEPT_PAUSE = 0.5
#: Connections one client address may hold at once (a student's phone and laptop, each with a few pages).
MAX_CONNECTIONS_PER_ADDRESS = 64
#: The addresses whose connections are not counted: the teacher's machine itself.
THIS_MACHINE = frozenset({"127.0.0.1", "::1"})
#: The errors of `accept()` that say the process or the machine ran out of something, not that a client failed.
_OUT_OF_HANDLES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Connections accepted at one call, as Tornado does: the loop serves the others between two calls.
_ACCEPTS_AT_ONCE = 128
#: How long a refused connection may take to send its request head (then it is closed unanswered).
_REFUSAL_WAIT = 5.0
#: Past this many addresses remembered, those with no open connection are forgotten.
_ADDRESSES_KEPT = 4096


class Accepting:
    """Accept connections on `sock` for `callback(connection, address)` on the current loop, pausing after a failed
    accept for want of file handles; `remove()` stops."""

    def __init__(self, sock: socket.socket, callback: Callable[[socket.socket, Any], None],
                 pause: float = ACCEPT_PAUSE) -> None:
        self.sock, self.callback, self.pause = sock, callback, pause
        self.loop = IOLoop.current()
        self.removed = False
        self.refusing = False  # in a burst of failed accepts: it was logged once
        self.paused: object | None = None
        self.loop.add_handler(sock, self.accept, IOLoop.READ)

    def accept(self, fd: Any, events: int) -> None:
        for _ in range(_ACCEPTS_AT_ONCE):
            if self.removed:
                return
            try:
                connection, address = self.sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in _OUT_OF_HANDLES:
                    raise
                self.wait(error)
                return
            self.refusing = False
            self.callback(connection, address)

    def wait(self, error: OSError) -> None:
        """Stop accepting for `pause` seconds; the first failure of a burst is logged."""
        if not self.refusing:
            log.warning("no file handle left to accept a connection (%s): new connections wait, the open ones are "
                        "served", error.strerror or error)
            self.refusing = True
        self.loop.remove_handler(self.sock)
        self.paused = self.loop.call_later(self.pause, self.resume)

    def resume(self) -> None:
        self.paused = None
        if not self.removed:
            self.loop.add_handler(self.sock, self.accept, IOLoop.READ)

    def remove(self) -> None:
        if self.paused is not None:
            self.loop.remove_timeout(self.paused)
        else:
            self.loop.remove_handler(self.sock)
        self.removed = True


class ClassHTTPServer(tornado.httpserver.HTTPServer):
    """Tornado's HTTP server, accepting through `Accepting` and holding each client address to `per_address`
    open connections (`uncounted` addresses aside)."""

    def initialize(self, *args: Any, per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
                   uncounted: Iterable[str] = THIS_MACHINE, **kwargs: Any) -> None:
        """(Tornado's servers are configured in `initialize`, not `__init__`.)"""
        super().initialize(*args, **kwargs)
        self.per_address, self.uncounted = per_address, frozenset(uncounted)
        self.open_by_address: dict[str, list[tornado.iostream.IOStream]] = {}
        self.refusals: set[asyncio.Future[None]] = set()

    def add_sockets(self, sockets: Iterable[socket.socket]) -> None:
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = Accepting(sock, self._handle_connection).remove

    def handle_stream(self, stream: tornado.iostream.IOStream, address: tuple[Any, ...]) -> None:
        client = str(address[0]) if address else ""
        if client and client not in self.uncounted:
            if len(self.open_by_address) > _ADDRESSES_KEPT:
                self.open_by_address = {who: alive for who, streams in self.open_by_address.items()
                                        if (alive := [stream for stream in streams if not stream.closed()])}
            streams = [kept for kept in self.open_by_address.get(client, []) if not kept.closed()]
            if len(streams) >= self.per_address:
                self.open_by_address[client] = streams
                task = asyncio.ensure_future(refuse(stream, self.per_address))
                self.refusals.add(task)  # the loop holds tasks weakly
                task.add_done_callback(self.refusals.discard)
                return
            self.open_by_address[client] = [*streams, stream]
        super().handle_stream(stream, address)


async def refuse(stream: tornado.iostream.IOStream, limit: int) -> None:
    """Answer one connection too many: read its request's head (a socket closed with unread bytes is reset, and
    the client would not read the answer), say why, close."""
    reason = (f"Too many connections from this address (at most {limit} at once): close some pages of this "
              "class, then reload.").encode()
    answer = (b"HTTP/1.1 429 Too Many Connections\r\nContent-Type: text/plain; charset=utf-8\r\n"
              b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(reason), reason))
    try:
        await asyncio.wait_for(stream.read_until(b"\r\n\r\n", max_bytes=16 * 1024), _REFUSAL_WAIT)
        await stream.write(answer)
    except (tornado.iostream.StreamClosedError, tornado.iostream.UnsatisfiableReadError, asyncio.TimeoutError):
        pass
    finally:
        stream.close()
