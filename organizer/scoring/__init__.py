"""The scoring rules the organizer takes from the engine and the standings computed from
results (pure, framework-free): the schemes an event chooses, the standings of an event."""
