"""The store: the database engine, its schema and its migrations; imports no other room of the
endpoint (docs/endpoint.md, "Rooms")."""
