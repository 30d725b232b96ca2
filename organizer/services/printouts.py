"""Former name of ``prints`` (the printed documents' data), kept until the benchmark imports
the new name."""

from .prints import event_report_data, round_pack_data, standings_data

__all__ = ["event_report_data", "round_pack_data", "standings_data"]
