"""Building the static site (dist/): Pyodide, the stdlib, the game zips, the app, a local server."""
