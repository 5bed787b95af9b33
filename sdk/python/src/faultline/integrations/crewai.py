"""CrewAI tools: a ``BaseTool`` whose failures reach the agent as told text and Faultline as typed records.

:func:`crewai_tool` wraps a Faultline :class:`~faultline.ToolDefinition`: CrewAI validates the
arguments against a schema built from the tool's signature, the call goes through the run loop
(typed errors, the decision table, retries, records), and the agent reads the enveloped result or
told text. Calls inside ``with runner.run()`` report into that run; others get a run each.
"""

from __future__ import annotations

import inspect
from typing import Any

from crewai.tools import BaseTool
from pydantic import BaseModel, ConfigDict, PrivateAttr, create_model

from ..run import current_run
from ..runner import RunSession, ToolRunner
from ..tools import ToolCallResult, ToolDefinition


def args_model(definition: ToolDefinition[Any]) -> type[BaseModel]:
    """A pydantic model of the tool's keyword arguments, from its signature and annotations."""
    fields: dict[str, Any] = {}
    for name, parameter in inspect.signature(definition.fn).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = Any if parameter.annotation is inspect.Parameter.empty else parameter.annotation
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[name] = (annotation, default)
    model: type[BaseModel] = create_model(f"{definition.name}_arguments", __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
    return model


class FaultlineCrewTool(BaseTool):
    """A CrewAI tool backed by a Faultline tool definition and runner."""

    _runner: ToolRunner = PrivateAttr()
    _definition: ToolDefinition[Any] = PrivateAttr()

    def _call(self, run: RunSession, kwargs: dict[str, Any]) -> ToolCallResult:
        return run.call(self._definition.name, kwargs)

    def _run(self, **kwargs: Any) -> str:
        """Runs the call through the run loop; returns what the agent reads (the envelope)."""
        active = current_run()
        if isinstance(active, RunSession) and active.runner is self._runner:
            return self._call(active, kwargs).model_text()
        with self._runner.run() as run:
            return self._call(run, kwargs).model_text()

    async def _arun(self, **kwargs: Any) -> str:
        """The async path CrewAI takes for async agents."""
        active = current_run()
        if isinstance(active, RunSession) and active.runner is self._runner:
            return (await active.acall(self._definition.name, kwargs)).model_text()
        async with self._runner.run() as run:
            return (await run.acall(self._definition.name, kwargs)).model_text()


def crewai_tool(definition: ToolDefinition[Any], runner: ToolRunner) -> FaultlineCrewTool:
    """The CrewAI ``BaseTool`` for ``definition``; ``runner`` must know the tool."""
    if runner.tools.get(definition.name) is not definition:
        raise ValueError(f"the runner does not know the tool '{definition.name}'")
    tool = FaultlineCrewTool(name=definition.name, description=definition.description or definition.name, args_schema=args_model(definition))
    tool._runner = runner
    tool._definition = definition
    return tool
