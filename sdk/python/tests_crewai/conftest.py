"""CrewAI runs in its own virtual environment (sdk/python/.venv-crewai): it pins openai 2.x and mcp 1.x."""

import os
import sys
from pathlib import Path

# CrewAI must not phone home from a test run.
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
# The scripted model server is shared with the main suite.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
