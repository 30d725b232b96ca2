"""Events: the list, the form, the overview, the audit log and the event's judges."""
