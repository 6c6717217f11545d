"""How the mail front end reaches its mail servers: the bot's address, SMTP submission for
what it sends, and either an IMAP mailbox or its own SMTP listener for what it receives.

Read from the environment (``URBANIST_MAIL_*``, ``URBANIST_SMTP_*``, ``URBANIST_IMAP_*``),
with command-line flags taking precedence. ``missing()`` says, step by step, what the
operator still has to set, in their language (``templates/<locale>/mail/settings/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

SECURITIES = ("starttls", "tls", "none")
SMTP_PORTS = {"starttls": 587, "tls": 465, "none": 25}
IMAP_PORTS = {"tls": 993, "none": 143}

# Each field, the variable it is read from. IMAP's user and password default to SMTP's:
# a hosted mailbox has one login (an app password) for both.
ENV = {
    "address": "URBANIST_MAIL_ADDRESS",
    "smtp_host": "URBANIST_SMTP_HOST",
    "smtp_port": "URBANIST_SMTP_PORT",
    "smtp_security": "URBANIST_SMTP_SECURITY",
    "smtp_user": "URBANIST_SMTP_USER",
    "smtp_password": "URBANIST_SMTP_PASSWORD",
    "imap_host": "URBANIST_IMAP_HOST",
    "imap_port": "URBANIST_IMAP_PORT",
    "imap_security": "URBANIST_IMAP_SECURITY",
    "imap_user": "URBANIST_IMAP_USER",
    "imap_password": "URBANIST_IMAP_PASSWORD",
    "imap_folder": "URBANIST_IMAP_FOLDER",
    "poll_seconds": "URBANIST_MAIL_POLL",
    "listen": "URBANIST_SMTP_LISTEN",
}


@dataclass(frozen=True)
class Step:
    """One thing the operator still has to set: a template name under
    ``templates/<locale>/mail/settings/`` and what it mentions."""

    key: str
    context: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MailSettings:
    address: str
    smtp_host: str
    smtp_port: int
    smtp_security: str
    smtp_user: str | None
    smtp_password: str | None = field(repr=False)
    imap_host: str | None
    imap_port: int
    imap_security: str
    imap_user: str | None
    imap_password: str | None = field(repr=False)
    imap_folder: str = "INBOX"
    poll_seconds: float = 60.0
    listen: str | None = None
    # Seconds for one server exchange (connect, a command, an answer) before it counts
    # as a temporary failure.
    timeout: float = 30.0
    # Values given but unusable (a port that is not a number...), as steps for missing().
    problems: tuple[Step, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str], **flags: object) -> MailSettings:
        """Settings from ``env`` (``os.environ``), each overridden by the flag of the
        field's name when it is given (not None). Never raises: a value that cannot be
        used is reported by ``missing()``."""
        names = {f.name for f in fields(cls)}
        unknown = set(flags) - names
        if unknown:
            raise TypeError(f"unknown mail settings: {', '.join(sorted(unknown))}")
        raw: dict[str, str] = {}
        for name, variable in ENV.items():
            value = flags.get(name)
            text = str(value).strip() if value is not None else env.get(variable, "").strip()
            if text:
                raw[name] = text
        problems: list[Step] = []

        def security(name: str, allowed: tuple[str, ...], default: str) -> str:
            value = raw.get(name, default).lower()
            if value not in allowed:
                problems.append(Step("bad_choice", {"variable": ENV[name], "value": value,
                                                    "choices": ", ".join(allowed)}))
                return default
            return value

        def number(name: str, default: float) -> float:
            if name not in raw:
                return default
            try:
                value = float(raw[name])
            except ValueError:
                value = -1.0
            if value <= 0 or (name.endswith("_port") and (value != int(value)
                                                          or value > 65535)):
                problems.append(Step("bad_number", {"variable": ENV[name],
                                                    "value": raw[name]}))
                return default
            return value

        smtp_security = security("smtp_security", SECURITIES, "starttls")
        # aioimaplib speaks implicit TLS or plain IMAP: every hosted mailbox offers 993.
        imap_security = security("imap_security", tuple(IMAP_PORTS), "tls")
        values: dict[str, Any] = {
            "address": raw.get("address", "").lower(),
            "smtp_host": raw.get("smtp_host", ""),
            "smtp_port": int(number("smtp_port", SMTP_PORTS[smtp_security])),
            "smtp_security": smtp_security,
            "smtp_user": raw.get("smtp_user"),
            "smtp_password": raw.get("smtp_password"),
            "imap_host": raw.get("imap_host"),
            "imap_port": int(number("imap_port", IMAP_PORTS[imap_security])),
            "imap_security": imap_security,
            "imap_user": raw.get("imap_user") or raw.get("smtp_user"),
            "imap_password": raw.get("imap_password") or raw.get("smtp_password"),
            "imap_folder": raw.get("imap_folder", "INBOX"),
            "poll_seconds": number("poll_seconds", 60.0),
            "listen": raw.get("listen"),
        }
        if flags.get("timeout") is not None:
            values["timeout"] = float(str(flags["timeout"]))
        order = list(ENV.values())
        problems.sort(key=lambda step: order.index(step.context["variable"]))
        return cls(**values, problems=tuple(problems))

    def listen_address(self) -> tuple[str, int] | None:
        """``listen`` as (host, port); None when unset or unreadable."""
        if not self.listen:
            return None
        host, sep, port = self.listen.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            return None
        return host.strip("[]"), int(port)

    def missing_steps(self) -> list[Step]:
        """What is still to set, in the order an operator sets it up."""
        steps: list[Step] = list(self.problems)
        local, at, domain = self.address.partition("@")
        if not (local and at and "." in domain):
            steps.append(Step("address", {"variable": ENV["address"],
                                          "value": self.address}))
        if not self.smtp_host:
            steps.append(Step("smtp_host", {"variable": ENV["smtp_host"]}))
        if bool(self.smtp_user) != bool(self.smtp_password) or (
                not self.smtp_user and self.smtp_security != "none"):
            steps.append(Step("smtp_login", {"user": ENV["smtp_user"],
                                             "password": ENV["smtp_password"]}))
        if not self.imap_host and not self.listen:
            steps.append(Step("incoming", {"imap": ENV["imap_host"],
                                           "listen": ENV["listen"]}))
        if self.imap_host and not (self.imap_user and self.imap_password):
            steps.append(Step("imap_login", {"user": ENV["imap_user"],
                                             "password": ENV["imap_password"]}))
        if self.listen and self.listen_address() is None:
            steps.append(Step("listen", {"variable": ENV["listen"], "value": self.listen}))
        return steps

    def missing(self, locale: str = "en") -> list[str]:
        """``missing_steps()`` in words, one paragraph a step; empty when complete."""
        from bot.text import Renderer

        renderer = Renderer()
        return [renderer.render_template(f"mail/settings/{step.key}", step.context,
                                         locale=locale)
                for step in self.missing_steps()]
