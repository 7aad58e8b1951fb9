"""The API's one request parser: strict JSON with a nesting limit (settings.REST_FRAMEWORK).

It is the only parser, so a form or multipart body gets 415 and the schema advertises
application/json alone. Everything it refuses is a ParseError (400, ``parse_error``).
"""

import codecs
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

from core.errors import echo
from trainer import strictjson


class StrictJSONParser(JSONParser):
    """JSON only: no NaN or Infinity, nothing nested deeper than strictjson.MAX_DEPTH."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            # A text encoding only: str.encode refuses bytes codecs such as bz2_codec,
            # which would inflate a small body past the upload limit.
            "".encode(encoding)
        except (LookupError, UnicodeError):
            raise ParseError(f"unsupported charset {echo(encoding)} in Content-Type") from None
        constant = drf_json.strict_constant if self.strict else None
        try:
            text = codecs.decode(stream.read(), encoding)
            return strictjson.loads(text, parse_constant=constant)
        except ValueError as exc:  # json's errors, the depth limit, UnicodeDecodeError
            raise ParseError(f"JSON parse error - {exc}") from None
