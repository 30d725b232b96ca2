"""Finals after the Swiss rounds: the cut, decliners, the final tables and the places."""
