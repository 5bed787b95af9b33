"""Size limits of the wire contract (``lib/contracts/limits.ts``)."""

from typing import Final

MAX_BODY_BYTES: Final = 5 * 1024 * 1024
"""Request body after decompression."""
MAX_RECORDS: Final = 1000
"""Records in one batch."""
MAX_RECORD_BYTES: Final = 64 * 1024
"""One record, serialised as JSON."""
MAX_ID_LENGTH: Final = 128
"""Ids."""
MAX_NAME_LENGTH: Final = 200
"""Tool, agent, service and environment names."""
MAX_CODE_LENGTH: Final = 128
"""Error codes."""
MAX_VERSION_LENGTH: Final = 64
"""Versions and releases."""
MAX_TEXT_LENGTH: Final = 16 * 1024
"""Free text such as the told text or a message."""
MAX_DELAY_MS: Final = 86_400_000
"""retry_after / backoff never exceed one day on the wire."""
