"""The table pages (bot/web): HTTP, store and browser tests."""
