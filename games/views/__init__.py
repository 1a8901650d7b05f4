"""The games' pages: the tables (lobby, a table, its seats and actions) in
``table_pages``, the hands of a table (list, replay, review, download) in ``hand_pages``."""
