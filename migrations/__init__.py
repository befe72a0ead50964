"""The SQL migrations (NNNN_name.sql), shipped as package data; see bot.storage.migrate."""
