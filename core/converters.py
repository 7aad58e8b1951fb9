"""The URL converter for a row's id (`<id:name>`), registered by core's app config.

Digits that fit the id columns (64-bit signed), so a longer number is an unknown address, a
404, before any query: the fixed SQL of core.rows passes an id as it comes, and SQLite
refuses a number past 64 bits (OverflowError) where PostgreSQL finds no row.
"""

from django.urls import register_converter

BIGGEST_ID = 2**63 - 1


class RowId:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > BIGGEST_ID:
            raise ValueError(f"{value} is past any id")  # Django's resolver: no match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(RowId, "id")
