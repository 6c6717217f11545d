"""Play by email: the third front end, beside bot/discord and bot/console.

Reading what people write (incoming, replytext, tokens, commands) is pure code; the
transports (SMTP out, IMAP and SMTP in) and the front end over the service sit beside it.
Import each module by its own name: this package exports nothing.
"""
