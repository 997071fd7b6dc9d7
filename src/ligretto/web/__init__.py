"""ligretto.web."""
