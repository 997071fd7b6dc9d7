"""The JSON API under ``/api``: one module per resource, gathered in ``routes``."""
