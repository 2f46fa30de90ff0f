"""A statement compiled once for a dialect and run as driver SQL: building and cache-keying a
Core expression costs more than SQLite takes to run it, so the statements a purchase runs are
built once, compiled for the engine's dialect, and executed with their parameters."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement


class Prepared:
    """One statement compiled for one dialect."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.defaults = dict(compiled.params)
        positional = getattr(compiled, "positional", False)
        self.order: list[str] | None = compiled.positiontup if positional else None  # type: ignore[attr-defined]

    def __call__(self, conn: Connection, **values: Any) -> Any:
        """Execute on the connection's DBAPI cursor with these values; returns the cursor."""
        params = {**self.defaults, **values}
        cursor = conn.connection.cursor()
        if self.order is not None:
            cursor.execute(self.sql, tuple(params[name] for name in self.order))
        else:
            cursor.execute(self.sql, params)
        return cursor

    def many(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """Execute once for each row's values, in one call of the driver's executemany."""
        cursor = conn.connection.cursor()
        full = [{**self.defaults, **row} for row in rows]
        if self.order is not None:
            cursor.executemany(self.sql, [tuple(row[name] for name in self.order) for row in full])
        else:
            cursor.executemany(self.sql, full)
        cursor.close()

    def run(self, conn: Connection, **values: Any) -> None:
        """Execute for the effect only."""
        self(conn, **values).close()

    def row(self, conn: Connection, **values: Any) -> Any:
        """The first row (a tuple), or None."""
        cursor = self(conn, **values)
        row = cursor.fetchone()
        cursor.close()
        return row

    def value(self, conn: Connection, **values: Any) -> Any:
        """The first column of the first row, or None."""
        row = self.row(conn, **values)
        return None if row is None else row[0]
