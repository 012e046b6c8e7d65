"""The few statements every command and request runs, executed on the driver's cursor.

SQLAlchemy Core spends several times the driver's own time on each execution (building an
execution context, its parameters, a result object). A `Prepared` statement is the same Core
statement, compiled once per dialect by SQLAlchemy itself, so the SQL text, the parameter style
(`?` on SQLite, `%(name)s` on PostgreSQL), the casts and each value's conversion (JSON, dates) are
exactly those Core would have used; it runs on the DBAPI cursor of the SQLAlchemy connection it is
given, inside that connection's transaction, and a driver error is handled and raised as Core
raises it (an `OperationalError` for a busy database, the connection invalidated on a disconnect).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import MultipleResultsFound, NoResultFound, PendingRollbackError
from sqlalchemy.sql import ClauseElement

Processor = Callable[[Any], Any] | None
Converted = list[tuple[str, Callable[[Any], Any]]]  # the columns read that are converted, and how


class _Compiled:
    """One statement's SQL for one dialect, its parameters' order and conversions."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, column_keys: Sequence[str] | None):
        compiled = statement.compile(dialect=dialect, column_keys=list(column_keys) if column_keys else None)
        if getattr(compiled, "insert_prefetch", None) or getattr(compiled, "update_prefetch", None):
            raise ValueError("a Prepared statement takes every value as a parameter (no Python defaults)")
        self.sql = compiled.string
        self.positional = compiled.positional
        processors = compiled._bind_processors  # what Core's execution applies to each parameter
        names = compiled.positiontup if compiled.positional else list(compiled.binds)
        self.params: list[tuple[str, Processor]] = [(name, processors.get(name)) for name in names]
        # the statement's own values (e.g. a JSON path: `state["turn"]`), given as Core gives them
        self.fixed = {name: bind.effective_value for name, bind in compiled.binds.items()
                      if not bind.required and name in names}
        columns = compiled._result_columns or []  # (key, name, objects, type) of each column read
        self.keys = [column[0] for column in columns]
        self.types = [column[3] for column in columns]
        # the columns converted as read, known once a cursor has described them
        self.results: Converted | None = None

    def parameters(self, values: dict[str, Any]) -> Any:
        if self.fixed:
            values = self.fixed | values
        if self.positional:
            return tuple(values[name] if conv is None else conv(values[name]) for name, conv in self.params)
        return {name: values[name] if conv is None else conv(values[name]) for name, conv in self.params}

    def converted(self, dialect: Dialect, description: Sequence[Any]) -> Converted:
        """The columns read that are converted, each with its conversion, as Core's result chooses
        it (the column's type, the driver's type code)."""
        if self.results is None:
            processors = [type_._cached_result_processor(dialect, column[1])
                          for type_, column in zip(self.types, description, strict=True)]
            self.results = [(key, conv) for key, conv in zip(self.keys, processors, strict=True) if conv]
        return self.results


def _begin(connection: Connection) -> None:
    """What Core's execution does first: begin the connection's transaction if none is (its
    commit commits nothing otherwise), refuse to run in one that failed."""
    transaction = connection.get_transaction()
    if transaction is None:
        connection.begin()
    elif not transaction.is_active:
        raise PendingRollbackError("This connection is on an inactive transaction. "
                                   "Please rollback() fully before proceeding")


class Prepared:
    """A Core statement run on the driver's cursor. `column_keys`: an INSERT's columns (the keys
    of the values it is given), as Core compiles an INSERT for the values executed with it."""

    def __init__(self, statement: ClauseElement, column_keys: Sequence[str] | None = None):
        self.statement, self.column_keys = statement, column_keys
        self._compiled: weakref.WeakKeyDictionary[Dialect, _Compiled] = weakref.WeakKeyDictionary()
        self._last: tuple[Dialect, _Compiled] | None = None  # the app's one engine: no lookup

    def _for(self, dialect: Dialect) -> _Compiled:
        last = self._last  # (read once: another thread may replace it)
        if last is not None and last[0] is dialect:
            return last[1]
        compiled = self._compiled.get(dialect)
        if compiled is None:
            compiled = self._compiled[dialect] = _Compiled(self.statement, dialect, self.column_keys)
        self._last = (dialect, compiled)
        return compiled

    def rows(self, connection: Connection, values: dict[str, Any]) -> list[dict[str, Any]]:
        """Run it with these values in the connection's transaction; the rows it returns, if any,
        as dicts of converted values, keyed as Core keys them."""
        _begin(connection)
        dialect = connection.dialect
        compiled = self._for(dialect)
        sql, params, cursor = compiled.sql, None, None
        try:
            params = compiled.parameters(values)
            cursor = connection.connection.cursor()
            cursor.execute(sql, params)
            if cursor.description is None:
                cursor.close()
                return []
            converted = compiled.converted(dialect, cursor.description)
            rows = [dict(zip(compiled.keys, row, strict=True)) for row in cursor.fetchall()]
            cursor.close()
            for row in rows:
                for key, conv in converted:
                    row[key] = conv(row[key])
        except BaseException as error:  # as Core's own execution: wrapped, the connection invalidated
            connection._handle_dbapi_exception(error, sql, params, cursor, None)  # closes the cursor
        return rows

    def first(self, connection: Connection, values: dict[str, Any]) -> dict[str, Any] | None:
        rows = self.rows(connection, values)
        return rows[0] if rows else None

    def one(self, connection: Connection, values: dict[str, Any]) -> dict[str, Any]:
        """The one row it returns; none or several raise as Core's `Result.one()` does."""
        rows = self.rows(connection, values)
        if not rows:
            raise NoResultFound("No row was found when one was required")
        if len(rows) > 1:
            raise MultipleResultsFound("Multiple rows were found when exactly one was required")
        return rows[0]
