"""Text formats built on the rules core: move notation, positions (JSON and compact), game records."""
