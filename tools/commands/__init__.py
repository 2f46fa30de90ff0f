"""The commands of `build.py`, one module each (`python -m tools COMMAND`: tools/__main__.py)."""
