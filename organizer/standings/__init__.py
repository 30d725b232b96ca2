"""An event's standings page and the projector's screen."""
