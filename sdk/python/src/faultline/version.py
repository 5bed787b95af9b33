"""The package's name and version as reported in ``resource.sdk``."""

from typing import Final

SDK_NAME: Final = "faultline-python"
"""Name reported as ``resource.sdk.name``; the Conformance page recognises it."""
SDK_VERSION: Final = "0.1.0"
"""Version reported as ``resource.sdk.version``."""
