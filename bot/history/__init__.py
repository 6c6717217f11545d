"""A server's history: finished tables, ratings (OpenSkill's Plackett-Luce model),
statistics, exports and replays. ``ratings`` and ``stats`` are pure; the store keeps
their rows (``results`` and ``ratings``, see bot/store/migrations/0005_ratings.sql)."""
