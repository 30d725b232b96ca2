"""Players signing themselves up for an event on its public page: the settings, the waiting
list, the e-mail confirmation and the organizer's list of sign-ups (docs/signup.md)."""
