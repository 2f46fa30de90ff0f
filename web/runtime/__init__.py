"""The browser's Python runtime: the edits to Pyodide's start and the code shipped into it."""
