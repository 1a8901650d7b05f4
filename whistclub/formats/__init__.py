"""The site's own date formats (``FORMAT_MODULE_PATH``), where Django's differ from how the
site writes: English dates as in Britain ("10 December 2026", "10 Dec"), not "Dec. 10, 2026".
French, Dutch and Portuguese keep Django's own formats ("10 décembre 2026")."""
