"""English dates as the clubs write them: day, month, year."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y H:i"
MONTH_DAY_FORMAT = "j M"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
