"""Read-only web pages of the tables: spectators, replays, players (see docs/web.md)."""
