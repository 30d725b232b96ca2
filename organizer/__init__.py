"""The organizer web app (see create_app)."""
