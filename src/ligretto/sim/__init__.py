"""ligretto.sim."""
