"""An event exported as JSON or CSV files, and imported from JSON."""
