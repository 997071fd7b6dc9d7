"""ligretto.tafel."""
