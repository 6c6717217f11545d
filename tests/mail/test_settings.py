"""MailSettings from the environment: defaults an operator expects, flags over variables,
and the step-by-step list of what is still to set (English and French)."""

from __future__ import annotations

from bot.mail.settings import MailSettings

HOSTED = {
    "URBANIST_MAIL_ADDRESS": "Play@Example.org",
    "URBANIST_SMTP_HOST": "smtp.example.org",
    "URBANIST_SMTP_USER": "play@example.org",
    "URBANIST_SMTP_PASSWORD": "app password",
    "URBANIST_IMAP_HOST": "imap.example.org",
}


def test_a_hosted_mailbox_needs_five_variables() -> None:
    s = MailSettings.from_env(HOSTED)
    assert s.missing() == []
    assert (s.address, s.smtp_port, s.smtp_security) == ("play@example.org", 587, "starttls")
    assert (s.imap_port, s.imap_security, s.imap_folder) == (993, "tls", "INBOX")
    # One login for both: IMAP takes SMTP's.
    assert (s.imap_user, s.imap_password) == ("play@example.org", "app password")
    assert "app password" not in repr(s)


def test_implicit_tls_moves_the_default_port_and_flags_win() -> None:
    s = MailSettings.from_env({**HOSTED, "URBANIST_SMTP_SECURITY": "TLS",
                               "URBANIST_MAIL_POLL": "15"}, smtp_host="mx.example.org",
                              imap_folder=None)
    assert (s.smtp_host, s.smtp_port, s.smtp_security) == ("mx.example.org", 465, "tls")
    assert s.poll_seconds == 15.0
    assert s.imap_folder == "INBOX"


def test_an_own_domain_listens_instead_of_reading_a_mailbox() -> None:
    env = {k: v for k, v in HOSTED.items() if k != "URBANIST_IMAP_HOST"}
    s = MailSettings.from_env({**env, "URBANIST_SMTP_LISTEN": "0.0.0.0:2525"})
    assert s.missing() == []
    assert s.listen_address() == ("0.0.0.0", 2525)


def test_nothing_set_lists_every_step_in_order() -> None:
    s = MailSettings.from_env({})
    steps = [step.key for step in s.missing_steps()]
    assert steps == ["address", "smtp_host", "smtp_login", "incoming"]
    english = s.missing()
    assert len(english) == 4
    assert "URBANIST_MAIL_ADDRESS" in english[0]
    assert "URBANIST_SMTP_HOST" in english[1]
    assert "URBANIST_SMTP_USER" in english[2] and "URBANIST_SMTP_PASSWORD" in english[2]
    assert "URBANIST_IMAP_HOST" in english[3] and "URBANIST_SMTP_LISTEN" in english[3]
    french = s.missing("fr")
    assert len(french) == 4 and french != english
    assert "URBANIST_MAIL_ADDRESS" in french[0]


def test_unusable_values_are_reported_not_raised() -> None:
    s = MailSettings.from_env({**HOSTED, "URBANIST_SMTP_PORT": "five",
                               "URBANIST_IMAP_SECURITY": "starttls",
                               "URBANIST_MAIL_ADDRESS": "play",
                               "URBANIST_SMTP_LISTEN": "nowhere"})
    keys = [step.key for step in s.missing_steps()]
    assert keys == ["bad_number", "bad_choice", "address", "listen"]
    text = "\n".join(s.missing())
    assert "URBANIST_SMTP_PORT" in text and '"five"' in text
    assert "URBANIST_IMAP_SECURITY" in text and "tls, none" in text
    # The unusable values fall back to the defaults meanwhile.
    assert (s.smtp_port, s.imap_security) == (587, "tls")


def test_half_a_login_is_not_enough() -> None:
    env = {k: v for k, v in HOSTED.items() if k != "URBANIST_SMTP_PASSWORD"}
    keys = [step.key for step in MailSettings.from_env(env).missing_steps()]
    assert keys == ["smtp_login", "imap_login"]
    # A relay on the same machine ('none') needs no login.
    local = {"URBANIST_MAIL_ADDRESS": "play@example.org", "URBANIST_SMTP_HOST": "localhost",
             "URBANIST_SMTP_SECURITY": "none", "URBANIST_SMTP_LISTEN": "127.0.0.1:25"}
    assert MailSettings.from_env(local).missing() == []
