"""The real mail servers the mail tests run against (tests/mail/servers.py)."""

from tests.mail.servers import imap_server, imap_server_polling, smtp_sink, tls_pair

__all__ = ["imap_server", "imap_server_polling", "smtp_sink", "tls_pair"]
