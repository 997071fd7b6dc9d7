"""ligretto.rules."""
