"""ligretto.store."""
