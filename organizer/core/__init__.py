"""Shared infrastructure every feature stands on: the database and its tables, migrations,
translations, security, permissions, page helpers, and the signals features listen to."""
