"""The command line: what the user types and the text and exit code that come back."""
