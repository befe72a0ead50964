"""End to end: the real bot, through the real discord.py client, against the fake Discord."""
