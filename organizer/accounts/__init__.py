"""Accounts, signing in, server-side sessions and one-time links."""
