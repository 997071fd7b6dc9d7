"""ligretto.bots."""
