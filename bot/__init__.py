"""The bot: everything with I/O (storage, clocks, the game service, the Discord adapter)."""
