"""Chat transcripts: the posts of a channel export, read from already-loaded JSON or text.

Pure: no file I/O, no clock. ``posts`` is the model, ``discord`` reads DiscordChatExporter
JSON, ``text`` the plain ``[time] name: text`` format, ``triage`` maps authors to seats and
hosts, orders the posts of several exports and says which ones may be commands.
"""
