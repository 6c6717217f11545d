"""Real mail servers on the loopback for the mail tests, each in a thread of its own (with
its own event loop), so that a test can stop, restart or cut them whatever loop it runs,
and call their helpers from sync or async code alike.

- ``smtp_sink``: an aiosmtpd server that keeps what it receives (``messages``,
  ``deliveries``), can answer the next deliveries with a 4xx or 5xx (``fail_next``),
  refuse a recipient (``refuse``), and be stopped and started again on the same port.
- ``imap_server`` / ``imap_server_polling``: pymap (in-memory backend) with the bot's
  mailbox user, with and without IDLE; ``append`` puts a message in a folder (over IMAP,
  as a delivery agent would), ``drop_connections`` cuts every open session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email
import email.policy
import imaplib
import re
import ssl
import threading
import warnings
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any, TypeVar, cast

import pytest
import trustme
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from proxyprotocol.reader import ProxyProtocolReader
from pymap.backend.dict import Config as DictConfig
from pymap.backend.dict import DictBackend, Login
from pymap.config import BackendCapability
from pymap.imap import IMAPServer
from pysasl.hashing import BuiltinHash

from bot.mail.settings import MailSettings

T = TypeVar("T")
# The sink asks for a login over plain SMTP on purpose (the loopback, in tests).
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
BOT_USER = "bot@example.org"
BOT_PASSWORD = "app-password-1234"


class _LoopThread:
    """An event loop running in a daemon thread; ``call`` runs a coroutine there."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            self.call(cancel_all(), timeout=5.0)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        if not self.loop.is_running():
            self.loop.close()


class _Listener:
    """A server socket whose open connections can be cut, on a loop thread."""

    def __init__(self, thread: _LoopThread) -> None:
        self._thread = thread
        self._server: asyncio.Server | None = None
        self._transports: set[asyncio.BaseTransport] = set()
        self.port = 0

    def track(self, transport: asyncio.BaseTransport) -> None:
        self._transports = {t for t in self._transports if not t.is_closing()}
        self._transports.add(transport)

    def untrack(self, transport: asyncio.BaseTransport) -> None:
        self._transports.discard(transport)

    def start(self, create: Callable[[int], Awaitable[asyncio.Server]]) -> None:
        async def go() -> None:
            if self._server is None:
                self._server = await create(self.port)
                self.port = int(self._server.sockets[0].getsockname()[1])
        self._thread.call(go())

    def open_connections(self) -> int:
        async def go() -> int:
            return sum(not t.is_closing() for t in self._transports)
        return self._thread.call(go())

    def drop_connections(self) -> None:
        async def go() -> None:
            for transport in list(self._transports):
                cast(asyncio.Transport, transport).abort()
            self._transports.clear()
        self._thread.call(go())

    def stop(self) -> None:
        """Refuse new connections and cut the open ones (an outage)."""
        async def go() -> None:
            server, self._server = self._server, None
            if server is not None:
                server.close()
        self._thread.call(go())
        self.drop_connections()


# -- SMTP ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Delivery:
    mail_from: str
    rcpt_tos: tuple[str, ...]
    raw: bytes
    message: EmailMessage


class _TrackedSMTP(SMTP):
    def __init__(self, listener: _Listener, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listener = listener

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._listener.track(transport)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self._listener.untrack(self.transport)
        super().connection_lost(exc)


class SmtpSink:
    def __init__(self, *, security: str = "none", tls: ssl.SSLContext | None = None,
                 login: tuple[str, str] | None = None) -> None:
        # security: 'none', 'starttls' (required before MAIL) or 'tls' (implicit), with
        # the server context ``tls``; login: the only (user, password) accepted.
        self.security = security
        self._tls = tls
        self._login = login
        self._thread = _LoopThread("smtp-sink")
        self._listener = _Listener(self._thread)
        self._lock = threading.Lock()
        self.deliveries: list[Delivery] = []
        self.connections = 0
        self._failures: list[str] = []
        self._refused: dict[str, str] = {}
        self.start()

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return self._listener.port

    @property
    def messages(self) -> list[EmailMessage]:
        with self._lock:
            return [d.message for d in self.deliveries]

    def fail_next(self, count: int, code: int = 451,
                  text: str = "4.3.0 Try again later") -> None:
        """Answer the next ``count`` messages' DATA with ``code``."""
        with self._lock:
            self._failures.extend([f"{code} {text}"] * count)

    def refuse(self, address: str, code: int = 550,
               text: str = "5.1.1 No such user here") -> None:
        with self._lock:
            self._refused[address.lower()] = f"{code} {text}"

    def start(self) -> None:
        loop = self._thread.loop

        def protocol() -> SMTP:
            self.connections += 1
            options: dict[str, Any] = {}
            if self.security == "starttls":
                options.update(tls_context=self._tls, require_starttls=True)
            if self._login is not None:
                # aiosmtpd does not see implicit TLS (it is the socket's): only STARTTLS
                # is checked by it.
                options.update(authenticator=self._authenticate, auth_required=True,
                               auth_require_tls=self.security == "starttls")
            return _TrackedSMTP(self._listener, self, hostname="sink.test", loop=loop,
                                **options)

        async def create(port: int) -> asyncio.Server:
            return await loop.create_server(protocol, "127.0.0.1", port,
                                            ssl=self._tls if self.security == "tls" else None)
        self._listener.start(create)

    def stop(self) -> None:
        self._listener.stop()

    def drop_connections(self) -> None:
        self._listener.drop_connections()

    def open_connections(self) -> int:
        return self._listener.open_connections()

    def close(self) -> None:
        self.stop()
        self._thread.close()

    def _authenticate(self, server: SMTP, session: Session, envelope: Envelope,
                      mechanism: str, data: Any) -> AuthResult:
        given = (data.login.decode(), data.password.decode()) \
            if isinstance(data, LoginPassword) else None
        return AuthResult(success=given == self._login, handled=False)

    # aiosmtpd's hooks
    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        with self._lock:
            refusal = self._refused.get(address.lower())
        if refusal:
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session,
                          envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        with self._lock:
            if self._failures:
                return self._failures.pop(0)
            message = email.message_from_bytes(raw, policy=email.policy.default)
            self.deliveries.append(Delivery(envelope.mail_from or "",
                                            tuple(envelope.rcpt_tos), raw,
                                            cast(EmailMessage, message)))
        return "250 OK"


# -- IMAP ---------------------------------------------------------------------------


class _Config(DictConfig):
    def __init__(self, *args: Any, idle: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._idle = idle

    @property
    def backend_capability(self) -> BackendCapability:
        return BackendCapability(idle=self._idle, object_id=True, multi_append=True)


class ImapTestServer:
    def __init__(self, *, idle: bool = True, user: str = BOT_USER,
                 password: str = BOT_PASSWORD, tls: ssl.SSLContext | None = None) -> None:
        # tls: a server context for implicit TLS (port 993 style); None: plain IMAP.
        self._tls = tls
        self.user = user
        self.password = password
        self.idle = idle
        self._thread = _LoopThread("imap-server")
        self._listener = _Listener(self._thread)
        self._backend = self._thread.call(self._make_backend())
        self.start()

    async def _make_backend(self) -> tuple[Login, _Config]:
        args = argparse.Namespace(debug=False, passlib_cfg=None, proxy_protocol=None,
                                  host="127.0.0.1", port=0, tls=False, cert=None, key=None,
                                  inherited_sockets=None, demo_data=False,
                                  demo_user=self.user, demo_password=self.password)
        # One hash round: pymap's default (500,000) costs a third of a second a login.
        config = _Config.from_args(args, idle=self.idle, secure_auth=False,
                                   invalid_user_sleep=0.0, reject_dnsbl=False,
                                   hash_context=BuiltinHash(rounds=1))
        login = Login(config)
        await DictBackend._add_demo_user(config, login)
        return login, config

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return self._listener.port

    def start(self) -> None:
        login, config = self._backend

        async def create(port: int) -> asyncio.Server:
            config.apply_context()
            reader = ProxyProtocolReader(config.proxy_protocol)
            serve = reader.get_callback(IMAPServer(login, config))

            async def connection(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
                # pymap's callback returns at once (the session runs in a task of its
                # own): the transport is forgotten when it closes, not here.
                self._listener.track(w.transport)
                await serve(r, w)
            return await asyncio.start_server(connection, "127.0.0.1", port, ssl=self._tls)
        self._listener.start(create)

    def stop(self) -> None:
        self._listener.stop()

    def drop_connections(self) -> None:
        self._listener.drop_connections()

    def close(self) -> None:
        self.stop()
        self._thread.close()

    def settings_for(self, address: str = BOT_USER, smtp: SmtpSink | None = None,
                     **overrides: Any) -> MailSettings:
        """The bot's settings on these servers (SMTP on the sink when given), plain
        connections, a short poll."""
        values: dict[str, Any] = {
            "address": address, "smtp_host": smtp.host if smtp else "127.0.0.1",
            "smtp_port": smtp.port if smtp else 1, "smtp_security": "none",
            "smtp_user": None, "smtp_password": None, "imap_host": self.host,
            "imap_port": self.port, "imap_security": "tls" if self._tls else "none",
            "imap_user": self.user,
            "imap_password": self.password, "imap_folder": "INBOX", "poll_seconds": 0.2,
            "timeout": 5.0}
        values.update(overrides)
        return MailSettings(**values)

    # -- what a delivery agent or a person at a mail client does -------------------

    def _client(self) -> imaplib.IMAP4:
        # The helpers talk to their own server: no certificate check needed there.
        client = (imaplib.IMAP4_SSL(self.host, self.port, timeout=10,
                                    ssl_context=ssl._create_unverified_context())
                  if self._tls else imaplib.IMAP4(self.host, self.port, timeout=10))
        client.login(self.user, self.password)
        return client

    def append(self, raw: bytes, folder: str = "INBOX", *, seen: bool = False) -> int:
        """Deliver ``raw`` to ``folder``; its UID."""
        with self._session() as client:
            status, data = client.append(folder, "(\\Seen)" if seen else None, None, raw)
            assert status == "OK", data
            match = re.search(rb"APPENDUID \d+ (\d+)", data[0] or b"")
            assert match, data
            return int(match.group(1))

    def _session(self) -> _Session:
        return _Session(self._client())

    def unseen(self, folder: str = "INBOX") -> list[int]:
        """UIDs of the messages not marked \\Seen."""
        return self._search(folder, "UNSEEN")

    def uids(self, folder: str = "INBOX") -> list[int]:
        return self._search(folder, "ALL")

    def _search(self, folder: str, criterion: str) -> list[int]:
        with self._session() as client:
            client.select(folder)
            status, data = client.uid("SEARCH", criterion)
            assert status == "OK", data
            return [int(n) for n in (data[0] or b"").split()]

    def set_unseen(self, uid: int, folder: str = "INBOX") -> None:
        """Clear \\Seen, as a person marking a message unread does."""
        with self._session() as client:
            client.select(folder)
            status, data = client.uid("STORE", str(uid), "-FLAGS", "(\\Seen)")
            assert status == "OK", data

    def create(self, folder: str) -> None:
        with self._session() as client:
            status, data = client.create(folder)
            assert status == "OK", data

    def delete(self, folder: str) -> None:
        with self._session() as client:
            status, data = client.delete(folder)
            assert status == "OK", data


class _Session:
    def __init__(self, client: imaplib.IMAP4) -> None:
        self.client = client

    def __enter__(self) -> imaplib.IMAP4:
        return self.client

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError, imaplib.IMAP4.error):
            self.client.logout()


# -- fixtures -------------------------------------------------------------------------


@dataclass(frozen=True)
class TlsPair:
    """A server certificate for 127.0.0.1 from a throwaway authority, and a client
    context that trusts that authority (and nothing else)."""

    server: ssl.SSLContext
    client: ssl.SSLContext


@pytest.fixture(scope="session")
def tls_pair() -> TlsPair:
    ca = trustme.CA()
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(server)
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ca.configure_trust(client)
    return TlsPair(server, client)


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    yield sink
    sink.close()


@pytest.fixture
def imap_server() -> Iterator[ImapTestServer]:
    server = ImapTestServer(idle=True)
    yield server
    server.close()


@pytest.fixture
def imap_server_polling() -> Iterator[ImapTestServer]:
    """A server that does not offer IDLE: the reader polls."""
    server = ImapTestServer(idle=False)
    yield server
    server.close()
