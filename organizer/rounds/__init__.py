"""Rounds: seating, the round's page, a table's page and result, confirmations and disputes,
the scoring assistant."""
