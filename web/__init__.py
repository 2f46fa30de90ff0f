"""The web side: the browser shell (static files) and the signing endpoint."""
