"""The Alembic migrations (``env.py``, ``versions/NNNN_name.py``), shipped as package data; the
bot applies them at start-up (see bot.storage.migrate)."""
