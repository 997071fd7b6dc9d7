"""The web app: the Tafel JSON API and pages, online play (``create_app`` in ``app``)."""
