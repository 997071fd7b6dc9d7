"""ligretto.live."""
