"""Project commands run inside .venv by build.py (`python -m tools COMMAND ...`)."""
