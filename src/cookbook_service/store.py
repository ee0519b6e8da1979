"""SQLite storage for the example service: schema, seed, queries, credentials.

One connection guarded by a lock: the service's event loop and the test
thread (reset, add_user, ...) may both use it. Private recipes are filtered
in SQL, so a page and its ``total_size`` always agree.

Pages are read by key, not with ``OFFSET``: the ids a filter selects are
listed once (from an index, until the next write) and a page is ``id >=``
the id at ``ws.start``, so a page deep into a big collection costs the
same as the first one.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sqlite3
import tempfile
import threading
from array import array
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

from cookbook_service import seed
from cookbook_service.auth import new_password_record

Row = dict[str, Any]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS dishes (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, content_type TEXT NOT NULL, data BLOB NOT NULL,
    last_modified TEXT NOT NULL, filename TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS cookbooks (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, cuisine TEXT NOT NULL,
    copyright_date TEXT NOT NULL, price TEXT NOT NULL, last_printing TEXT,
    description TEXT NOT NULL DEFAULT '', cover_id INTEGER REFERENCES files(id));
CREATE TABLE IF NOT EXISTS recipes (
    id INTEGER PRIMARY KEY, dish_id INTEGER NOT NULL REFERENCES dishes(id),
    cookbook_id INTEGER NOT NULL REFERENCES cookbooks(id),
    instructions TEXT NOT NULL, private INTEGER NOT NULL DEFAULT 0,
    date_last_modified TEXT NOT NULL DEFAULT '2026-01-01T00:00:00.000000+00:00');
CREATE INDEX IF NOT EXISTS recipes_private ON recipes(private, id);
CREATE INDEX IF NOT EXISTS recipes_dish ON recipes(dish_id, private, id);
CREATE INDEX IF NOT EXISTS recipes_cookbook ON recipes(cookbook_id, private, id);
CREATE INDEX IF NOT EXISTS cookbooks_cuisine ON cookbooks(cuisine, id);
CREATE TABLE IF NOT EXISTS users (name TEXT PRIMARY KEY, salt TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS consumers (key TEXT PRIMARY KEY, secret TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    consumer_key TEXT NOT NULL, key TEXT NOT NULL, secret TEXT NOT NULL,
    access TEXT NOT NULL, PRIMARY KEY (consumer_key, key));
"""

#: The ``date_last_modified`` of the seeded recipes (fixed: their etags stay the same).
SEED_DATE = "2026-01-01T00:00:00.000000+00:00"
#: Generated recipe ``n`` was last changed ``n`` seconds after it (each at its own time).
_SEED_TIME = datetime.fromisoformat(SEED_DATE)


def now_text() -> str:
    """Now, as ``date_last_modified`` is stored: UTC, microseconds (text order is time order)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def since_text(text: str) -> str:
    """A ``modified_since`` argument (ISO 8601, any offset) in the stored form."""
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat(timespec="microseconds")


_DATA_TABLES = ("recipes", "cookbooks", "files", "dishes")


def _private_temp_db() -> str:
    handle, path = tempfile.mkstemp(prefix="cookbook-", suffix=".sqlite")
    os.close(handle)

    def remove() -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path + suffix)

    atexit.register(remove)
    return path


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class NameTaken(Exception):
    """A cookbook with that name already exists."""


class Store:
    """The service's data; implements :class:`cookbook_service.auth.CredentialStore`.

    ``path`` None means a private temporary file removed at exit. An existing
    file keeps its data (credentials included); a new one is seeded.
    """

    def __init__(self, path: str | None = None, *, seed_recipes: int = 0) -> None:
        self.path = path if path is not None else _private_temp_db()
        self.seed_recipes = seed_recipes
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=OFF")
        self._keys: dict[tuple[object, ...], array[int]] = {}
        self._dirty = True
        with self._lock:
            self._db.executescript(_SCHEMA)
            self._upgrade_schema()
            fresh = self._scalar("SELECT COUNT(*) FROM cookbooks") == 0
            if fresh:
                self._seed()
            elif seed_recipes:
                with self._transaction() as db:
                    self._generate_recipes(db)
            # An existing file may hold changes from an earlier run: reset must reseed it.
            self._dirty = not fresh

    # -- lifecycle -----------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._keys.clear()
            self._dirty = True

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def reset(self) -> None:
        """Restore the seed data (credentials are kept); free when nothing was written."""
        with self._lock:
            if not self._dirty:
                return
            with self._transaction() as db:
                for table in _DATA_TABLES:
                    db.execute(f"DELETE FROM {table}")
                self._seed_rows(db)
            self._dirty = False

    def _seed(self) -> None:
        with self._transaction() as db:
            self._seed_rows(db)

    def _seed_rows(self, db: sqlite3.Connection) -> None:
        db.executemany(
            "INSERT INTO dishes (id, name) VALUES (?, ?)",
            [(i, name) for i, name in enumerate(seed.DISHES, 1)],
        )
        db.executemany(
            "INSERT INTO cookbooks (id, name, cuisine, copyright_date, price, last_printing,"
            " description) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(i, *book) for i, book in enumerate(seed.COOKBOOKS, 1)],
        )
        dish_ids = {name: i for i, name in enumerate(seed.DISHES, 1)}
        book_ids = {book.name: i for i, book in enumerate(seed.COOKBOOKS, 1)}
        db.executemany(
            "INSERT INTO recipes (id, dish_id, cookbook_id, instructions, private)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (i, dish_ids[r.dish], book_ids[r.cookbook], r.instructions, int(r.private))
                for i, r in enumerate(seed.RECIPES, 1)
            ],
        )
        self._generate_recipes(db)

    def _generate_recipes(self, db: sqlite3.Connection) -> None:
        """Top the generated recipes up to ``seed_recipes`` (ids after the seed's)."""
        if not self.seed_recipes:
            return
        base = len(seed.RECIPES)
        highest = db.execute("SELECT MAX(id) FROM recipes").fetchone()[0] or 0
        first = max(base, highest) + 1
        ndishes, nbooks = len(seed.DISHES), len(seed.COOKBOOKS)
        db.executemany(
            "INSERT INTO recipes (id, dish_id, cookbook_id, instructions, private,"
            " date_last_modified) VALUES (?, ?, ?, ?, 0, ?)",
            (
                (
                    n,
                    n % ndishes + 1,
                    n % nbooks + 1,
                    f"Generated recipe number {n}.",
                    (_SEED_TIME + timedelta(seconds=n)).isoformat(timespec="microseconds"),
                )
                for n in range(first, base + self.seed_recipes + 1)
            ),
        )

    # -- helpers -------------------------------------------------------------

    def _scalar(self, sql: str, params: tuple[object, ...] = ()) -> Any:
        with self._lock:
            row = self._db.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def _one(self, sql: str, params: tuple[object, ...]) -> Row | None:
        with self._lock:
            row = self._db.execute(sql, params).fetchone()
        return None if row is None else dict(row)

    def _page(
        self, table: str, where: str, params: tuple[object, ...], start: int, size: int
    ) -> tuple[list[Row], int]:
        """Rows ``start`` to ``start + size`` of a filter, read by key, and the total."""
        with self._lock:
            keys = self._keys_of(table, where, params)
            if start >= len(keys):
                return [], len(keys)
            rows = self._db.execute(
                f"SELECT * FROM {table} WHERE {where} AND id >= ? ORDER BY id LIMIT ?",
                (*params, keys[start], size),
            ).fetchall()
        return [dict(r) for r in rows], len(keys)

    def _keys_of(self, table: str, where: str, params: tuple[object, ...]) -> array[int]:
        """The ids a filter selects, in order: position to key, kept until the next write."""
        key = (table, where, params)
        keys = self._keys.get(key)
        if keys is None:
            cursor = self._db.execute(f"SELECT id FROM {table} WHERE {where} ORDER BY id", params)
            keys = self._keys[key] = array("q", (row[0] for row in cursor))
        return keys

    # -- recipes -------------------------------------------------------------

    def recipe(self, recipe_id: int, *, sees_private: bool) -> Row | None:
        sql = "SELECT * FROM recipes WHERE id = ?" + ("" if sees_private else " AND private = 0")
        return self._one(sql, (recipe_id,))

    def recipes(
        self,
        start: int,
        size: int,
        *,
        sees_private: bool,
        dish_id: int | None = None,
        cookbook_id: int | None = None,
        search: str | None = None,
        modified_since: str | None = None,
    ) -> tuple[list[Row], int]:
        clauses: list[str] = [] if sees_private else ["private = 0"]
        params: list[object] = []
        if dish_id is not None:
            clauses.append("dish_id = ?")
            params.append(dish_id)
        if cookbook_id is not None:
            clauses.append("cookbook_id = ?")
            params.append(cookbook_id)
        if search is not None:
            clauses.append("instructions LIKE ? ESCAPE '\\'")
            params.append(_like_pattern(search))
        if modified_since is not None:
            clauses.append("date_last_modified >= ?")
            params.append(modified_since)
        where = " AND ".join(clauses) or "1"
        return self._page("recipes", where, tuple(params), start, size)

    def update_recipe(self, recipe_id: int, changes: dict[str, object]) -> None:
        if changes:
            changes = {**changes, "date_last_modified": now_text()}
        self._update("recipes", recipe_id, changes)

    def add_recipe(self, dish_id: int, cookbook_id: int, instructions: str) -> int:
        """A new public recipe (the service publishes no factory for them; tests add them)."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO recipes (dish_id, cookbook_id, instructions, date_last_modified)"
                " VALUES (?, ?, ?, ?)",
                (dish_id, cookbook_id, instructions, now_text()),
            )
        return int(cursor.lastrowid or 0)

    def delete_recipe(self, recipe_id: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM recipes WHERE id = ?", (recipe_id,))

    # -- dishes --------------------------------------------------------------

    def dish(self, dish_id: int) -> Row | None:
        return self._one("SELECT * FROM dishes WHERE id = ?", (dish_id,))

    def dishes(self, start: int, size: int) -> tuple[list[Row], int]:
        return self._page("dishes", "1", (), start, size)

    def update_dish(self, dish_id: int, changes: dict[str, object]) -> None:
        self._update("dishes", dish_id, changes)

    # -- cookbooks -----------------------------------------------------------

    def cookbook(self, cookbook_id: int) -> Row | None:
        return self._one("SELECT * FROM cookbooks WHERE id = ?", (cookbook_id,))

    def cookbook_named(self, name: str) -> Row | None:
        return self._one("SELECT * FROM cookbooks WHERE name = ?", (name,))

    def cookbooks(
        self, start: int, size: int, *, cuisine: str | None = None
    ) -> tuple[list[Row], int]:
        if cuisine is None:
            return self._page("cookbooks", "1", (), start, size)
        return self._page("cookbooks", "cuisine = ?", (cuisine,), start, size)

    def featured_cookbook(self) -> Row | None:
        """The top-level entry ``featured_cookbook``: the oldest cookbook."""
        return self._one("SELECT * FROM cookbooks ORDER BY id LIMIT 1", ())

    def create_cookbook(self, values: dict[str, object]) -> Row:
        """Insert a cookbook; raises :class:`NameTaken` if the name is in use."""
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        try:
            with self._transaction() as db:
                cursor = db.execute(
                    f"INSERT INTO cookbooks ({columns}) VALUES ({marks})", tuple(values.values())
                )
                new_id = cursor.lastrowid
        except sqlite3.IntegrityError:
            raise NameTaken(str(values.get("name"))) from None
        row = self.cookbook(int(new_id or 0))
        assert row is not None
        return row

    def update_cookbook(self, cookbook_id: int, changes: dict[str, object]) -> None:
        """Apply changes; raises :class:`NameTaken` on a rename to a used name."""
        try:
            self._update("cookbooks", cookbook_id, changes)
        except sqlite3.IntegrityError:
            raise NameTaken(str(changes.get("name"))) from None

    def _update(self, table: str, row_id: int, changes: dict[str, object]) -> None:
        if not changes:
            return
        assignments = ", ".join(f"{column} = ?" for column in changes)
        with self._transaction() as db:
            db.execute(
                f"UPDATE {table} SET {assignments} WHERE id = ?", (*changes.values(), row_id)
            )

    # -- hosted files --------------------------------------------------------

    def _upgrade_schema(self) -> None:
        """Add the columns a database file written by an older version lacks."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(files)")}
        if "filename" not in columns:
            self._db.execute("ALTER TABLE files ADD COLUMN filename TEXT NOT NULL DEFAULT ''")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(recipes)")}
        if "date_last_modified" not in columns:
            self._db.execute(
                "ALTER TABLE recipes ADD COLUMN date_last_modified TEXT NOT NULL"
                f" DEFAULT '{SEED_DATE}'"
            )

    def set_cover(
        self, cookbook_id: int, content_type: str, data: bytes, filename: str = ""
    ) -> int:
        """Store a new cover file and point the cookbook at it; returns the file id."""
        now = datetime.now(timezone.utc).isoformat()
        with self._transaction() as db:
            old = db.execute(
                "SELECT cover_id FROM cookbooks WHERE id = ?", (cookbook_id,)
            ).fetchone()
            cursor = db.execute(
                "INSERT INTO files (content_type, data, last_modified, filename)"
                " VALUES (?, ?, ?, ?)",
                (content_type, data, now, filename),
            )
            db.execute(
                "UPDATE cookbooks SET cover_id = ? WHERE id = ?", (cursor.lastrowid, cookbook_id)
            )
            if old is not None and old[0] is not None:
                db.execute("DELETE FROM files WHERE id = ?", (old[0],))
        return int(cursor.lastrowid or 0)

    def delete_cover(self, cookbook_id: int) -> None:
        with self._transaction() as db:
            old = db.execute(
                "SELECT cover_id FROM cookbooks WHERE id = ?", (cookbook_id,)
            ).fetchone()
            db.execute("UPDATE cookbooks SET cover_id = NULL WHERE id = ?", (cookbook_id,))
            if old is not None and old[0] is not None:
                db.execute("DELETE FROM files WHERE id = ?", (old[0],))

    def file(self, file_id: int) -> Row | None:
        return self._one("SELECT * FROM files WHERE id = ?", (file_id,))

    # -- credentials (CredentialStore) ---------------------------------------

    def add_user(self, name: str, password: str) -> None:
        salt, digest = new_password_record(name, password)
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO users (name, salt, hash) VALUES (?, ?, ?)",
                (name, salt, digest),
            )

    def add_consumer(self, key: str, secret: str = "") -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO consumers (key, secret) VALUES (?, ?)", (key, secret)
            )

    def add_token(self, consumer_key: str, key: str, secret: str, access: str = "write") -> None:
        if access not in ("write", "anonymous"):
            raise ValueError(f"access must be 'write' or 'anonymous', not {access!r}")
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO tokens (consumer_key, key, secret, access)"
                " VALUES (?, ?, ?, ?)",
                (consumer_key, key, secret, access),
            )

    def password_record(self, username: str) -> tuple[str, str] | None:
        row = self._one("SELECT salt, hash FROM users WHERE name = ?", (username,))
        return None if row is None else (row["salt"], row["hash"])

    def consumer_secret(self, consumer_key: str) -> str | None:
        value = self._scalar("SELECT secret FROM consumers WHERE key = ?", (consumer_key,))
        return None if value is None else str(value)

    def token(self, consumer_key: str, token_key: str) -> tuple[str, str] | None:
        row = self._one(
            "SELECT secret, access FROM tokens WHERE consumer_key = ? AND key = ?",
            (consumer_key, token_key),
        )
        return None if row is None else (row["secret"], row["access"])
