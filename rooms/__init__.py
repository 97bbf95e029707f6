"""The rooms store (class mode): schema, store, limits, writers and the database engine.
It takes a SQLAlchemy engine and knows no page."""
