"""agenttui: a terminal chat app for a personal AI agent that remembers you.

This module holds the version only: importing the package must stay cheap and
must never pull in the UI toolkit.
"""

__version__ = "0.1.0"
