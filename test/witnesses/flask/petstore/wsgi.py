"""WSGI entry point for gunicorn: `petstore.wsgi:app` (keys from $KEYS_FILE)."""
import logging

from . import create_app

logging.basicConfig(level=logging.INFO, format="%(asctime)s [petstore] %(levelname)s %(message)s")
app = create_app()
