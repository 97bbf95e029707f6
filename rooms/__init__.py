"""The rooms store (class mode): settings (where the database is), schema, store (with
store_reads, store_students, store_prune), limits, writers, pulses (a room's pulse
cached per process) and followers (which pages follow which room, for the push). It
takes a SQLAlchemy engine (made by ui/class_mode/database.py) and knows no page."""
