"""Google provider tools: ``google.google_search`` (S1), ``google.code_execution`` (S2),
``google.url_context``, ``google.file_search`` (Gemini API), ``google.google_maps`` and
``google.enterprise_web_search`` (Vertex AI).

Each tool is a :class:`~modelport.provider_tools.ProviderToolSpec` with a strict argument class:
camelCase wire names (the keys of ``ProviderTool.args``), snake_case attributes, unknown fields and
ill-typed values rejected. Backend rules (checked by the core before any request is sent):

- ``timeRangeFilter`` only on the Gemini API (backend ``"gemini"``), with both ends as RFC 3339
  timestamps and start strictly before end (Google treats an empty interval as matching nothing);
- ``excludeDomains`` (at most 2,000 domain names) and ``blockingConfidence`` only on Vertex AI
  (backend ``"vertex"``);
- ``google.file_search`` only on the Gemini API (File Search stores live there), with at least one
  ``fileSearchStores/...`` name; ``google.enterprise_web_search`` only on Vertex AI;
- ``google.google_maps`` takes the retrieval location (``latLng``, ``languageCode``), which is sent
  in ``toolConfig.retrievalConfig`` rather than in the tool entry.

:func:`tool_to_wire` turns a validated tool into its ``tools[]`` entry (``{"googleSearch": {...}}``,
``{"codeExecution": {}}``); :func:`google_search` and :func:`code_execution` build the tools from
snake_case Python arguments; :func:`resolve_builtin_tools` resolves untrusted names (JSON, CLI)
through the registered allow-list (T3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from modelport.errors import ProviderToolError, validation_message
from modelport.provider_tools import ProviderToolSpec, resolve_tool_names
from modelport.tools.args import DomainName
from modelport.types import ProviderTool

from ._timestamps import parse_rfc3339, timestamp

__all__ = [
    "BlockingConfidence",
    "CodeExecutionArgs",
    "EnterpriseWebSearchArgs",
    "FileSearchArgs",
    "GoogleMapsArgs",
    "GoogleSearchArgs",
    "LatLng",
    "PROVIDER_TOOL_SPECS",
    "SearchTypes",
    "TimeRangeFilter",
    "UrlContextArgs",
    "code_execution",
    "enterprise_web_search",
    "file_search",
    "google_maps",
    "google_search",
    "resolve_builtin_tools",
    "retrieval_config",
    "tool_to_wire",
    "tools_to_wire",
    "url_context",
]

#: Google's PhishBlockThreshold values accepted for ``blockingConfidence`` (Vertex AI only).
BlockingConfidence = Literal[
    "BLOCK_LOW_AND_ABOVE",
    "BLOCK_MEDIUM_AND_ABOVE",
    "BLOCK_HIGH_AND_ABOVE",
    "BLOCK_HIGHER_AND_ABOVE",
    "BLOCK_VERY_HIGH_AND_ABOVE",
    "BLOCK_ONLY_EXTREMELY_HIGH",
]

#: Most domains Google accepts in ``excludeDomains``.
MAX_EXCLUDED_DOMAINS = 2_000


class _Args(BaseModel):
    """Strict, immutable argument classes: no coercion, unknown fields rejected."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Empty(_Args):
    """An option that is switched on by being present: ``{}``."""


class SearchTypes(_Args):
    """Which search verticals to use; unset means web search."""

    web_search: _Empty | None = Field(default=None, alias="webSearch")
    image_search: _Empty | None = Field(default=None, alias="imageSearch")


class TimeRangeFilter(_Args):
    """Only results published in ``[startTime, endTime)``; Gemini API only."""

    start_time: str = Field(alias="startTime")
    end_time: str = Field(alias="endTime")

    @field_validator("start_time", "end_time")
    @classmethod
    def _rfc3339(cls, value: str) -> str:
        parse_rfc3339(value)
        return value

    @model_validator(mode="after")
    def _ordered(self) -> TimeRangeFilter:
        if parse_rfc3339(self.start_time) >= parse_rfc3339(self.end_time):
            raise ValueError("startTime must be before endTime (an empty interval matches nothing)")
        return self


class GoogleSearchArgs(_Args):
    """Arguments of ``google.google_search``; ``{}`` keeps Google's defaults.

    ``excludeDomains`` takes ASCII domain names (internationalized names in their ``xn--`` form).
    """

    search_types: SearchTypes | None = Field(default=None, alias="searchTypes")
    time_range_filter: TimeRangeFilter | None = Field(default=None, alias="timeRangeFilter")
    exclude_domains: list[DomainName] | None = Field(
        default=None, alias="excludeDomains", max_length=MAX_EXCLUDED_DOMAINS
    )
    blocking_confidence: BlockingConfidence | None = Field(default=None, alias="blockingConfidence")


class CodeExecutionArgs(_Args):
    """``google.code_execution`` takes no arguments: ``{}`` only."""


class UrlContextArgs(_Args):
    """``google.url_context`` takes no arguments: the URLs are in the prompt."""


_STORE = re.compile(r"fileSearchStores/[a-z0-9][a-z0-9-]{0,62}")


class FileSearchArgs(_Args):
    """Arguments of ``google.file_search`` (Gemini API only): the stores to search (required), an
    optional metadata filter (Google's filter syntax) and how many chunks to retrieve."""

    file_search_store_names: list[str] = Field(alias="fileSearchStoreNames", min_length=1, max_length=100)
    metadata_filter: str | None = Field(default=None, alias="metadataFilter", min_length=1)
    top_k: int | None = Field(default=None, alias="topK", gt=0, le=100)

    @field_validator("file_search_store_names")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not _STORE.fullmatch(name):
                raise ValueError(f"{name!r} is not a File Search store name (fileSearchStores/...)")
        if len(set(value)) != len(value):
            raise ValueError("a store is named twice")
        return value


class LatLng(_Args):
    """A point on Earth in degrees."""

    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)


class GoogleMapsArgs(_Args):
    """Arguments of ``google.google_maps``: the widget token switch, and the retrieval location
    (``latLng``, ``languageCode``), which goes to ``toolConfig.retrievalConfig``."""

    enable_widget: bool | None = Field(default=None, alias="enableWidget")
    lat_lng: LatLng | None = Field(default=None, alias="latLng")
    language_code: str | None = Field(
        default=None, alias="languageCode", pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
    )


class EnterpriseWebSearchArgs(_Args):
    """Arguments of ``google.enterprise_web_search`` (Vertex AI only; Web Grounding for Enterprise)."""

    exclude_domains: list[DomainName] | None = Field(
        default=None, alias="excludeDomains", max_length=MAX_EXCLUDED_DOMAINS
    )
    blocking_confidence: BlockingConfidence | None = Field(default=None, alias="blockingConfidence")


_SEARCH = ProviderToolSpec(
    id="google.google_search",
    name="google_search",
    namespace="google",
    args_type=GoogleSearchArgs,
    description="Grounding with Google Search; the model decides whether to search.",
    backend_args={
        "timeRangeFilter": frozenset({"gemini"}),
        "excludeDomains": frozenset({"vertex"}),
        "blockingConfidence": frozenset({"vertex"}),
    },
)
_CODE = ProviderToolSpec(
    id="google.code_execution",
    name="code_execution",
    namespace="google",
    args_type=CodeExecutionArgs,
    description="Python code execution run by Google.",
)

_URL = ProviderToolSpec(
    id="google.url_context",
    name="url_context",
    namespace="google",
    args_type=UrlContextArgs,
    description="URL context: the model reads the pages whose URLs are in the prompt.",
)
_FILES = ProviderToolSpec(
    id="google.file_search",
    name="file_search",
    namespace="google",
    args_type=FileSearchArgs,
    description="File Search: retrieval from File Search stores (Gemini API).",
)
_MAPS = ProviderToolSpec(
    id="google.google_maps",
    name="google_maps",
    namespace="google",
    args_type=GoogleMapsArgs,
    description="Grounding with Google Maps, optionally around a location.",
)
_ENTERPRISE = ProviderToolSpec(
    id="google.enterprise_web_search",
    name="enterprise_web_search",
    namespace="google",
    args_type=EnterpriseWebSearchArgs,
    description="Web Grounding for Enterprise (Vertex AI).",
)

PROVIDER_TOOL_SPECS: tuple[ProviderToolSpec, ...] = (_SEARCH, _CODE, _URL, _FILES, _MAPS, _ENTERPRISE)
"""Every Google provider-tool spec, registered by the plugin."""

_BY_ID = {spec.id: spec for spec in PROVIDER_TOOL_SPECS}
_WIRE_KEYS = {
    "google.google_search": "googleSearch",
    "google.code_execution": "codeExecution",
    "google.url_context": "urlContext",
    "google.file_search": "fileSearch",
    "google.google_maps": "googleMaps",
    "google.enterprise_web_search": "enterpriseWebSearch",
}
#: Tools that exist on one backend only.
_TOOL_BACKENDS = {"google.file_search": "gemini", "google.enterprise_web_search": "vertex"}
_BACKEND_NAMES = {"gemini": "the Gemini API (google)", "vertex": "Vertex AI (google-vertex)"}
#: Arguments that are not part of the tool entry (they go to ``toolConfig``).
_TOOL_CONFIG_ARGS = {"google.google_maps": frozenset({"latLng", "languageCode"})}


def tool_to_wire(tool: ProviderTool, backend: str) -> dict[str, Any]:
    """The ``tools[]`` entry for one Google provider tool, validated for ``backend``.

    Raises :class:`~modelport.errors.ProviderToolError` for a tool that is not Google's, a name
    that does not match the id, or arguments that are invalid or not allowed on ``backend``.
    """
    spec = _BY_ID.get(tool.id)
    if spec is None:
        raise ProviderToolError(f"unknown Google provider tool {tool.id!r}", tool_id=tool.id)
    if tool.name != spec.name:
        raise ProviderToolError(
            f"provider tool {tool.id!r} must be named {spec.name!r}, not {tool.name!r}", tool_id=tool.id
        )
    only = _TOOL_BACKENDS.get(spec.id)
    if only is not None and backend != only:
        raise ProviderToolError(
            f"provider tool {tool.id!r} is only available on {_BACKEND_NAMES[only]}, not on the "
            f"{backend!r} backend",
            tool_id=tool.id,
        )
    args = spec.args_of(tool, backend)
    wire = args.model_dump(mode="json", by_alias=True, exclude_none=True)
    for key in _TOOL_CONFIG_ARGS.get(spec.id, ()):
        wire.pop(key, None)
    return {_WIRE_KEYS[spec.id]: wire}


def retrieval_config(tools: Iterable[ProviderTool]) -> dict[str, Any] | None:
    """``toolConfig.retrievalConfig`` from the ``google.google_maps`` location, if one is given."""
    for tool in tools:
        if tool.id == _MAPS.id:
            args = _MAPS.args_of(tool)
            config = args.model_dump(
                mode="json", by_alias=True, exclude_none=True, include={"lat_lng", "language_code"}
            )
            return config or None
    return None


def tools_to_wire(tools: Iterable[ProviderTool], backend: str) -> list[dict[str, Any]]:
    """``tools[]`` entries for several provider tools, in the given order (they go first, S1)."""
    return [tool_to_wire(tool, backend) for tool in tools]


def google_search(
    *,
    search_types: Sequence[Literal["web", "image"]] | None = None,
    time_range: tuple[datetime | str, datetime | str] | None = None,
    exclude_domains: Sequence[str] | None = None,
    blocking_confidence: BlockingConfidence | None = None,
) -> ProviderTool:
    """The ``google.google_search`` tool with snake_case arguments.

    ``search_types`` names the verticals (``["web", "image"]``); ``time_range`` is ``(start, end)``
    as RFC 3339 strings or aware datetimes (Gemini API only); ``exclude_domains`` and
    ``blocking_confidence`` are Vertex AI only. The arguments are checked here for shape; backend
    rules are checked when the request is prepared.
    """
    args: dict[str, Any] = {}
    if search_types is not None:
        if isinstance(search_types, str) or not set(search_types) <= {"web", "image"}:
            raise ProviderToolError("search_types must be a list of 'web' and/or 'image'", tool_id=_SEARCH.id)
        names = {"web": "webSearch", "image": "imageSearch"}
        args["searchTypes"] = {names[kind]: {} for kind in search_types}
    if time_range is not None:
        if not isinstance(time_range, (tuple, list)) or len(time_range) != 2:
            raise ProviderToolError("time_range must be a (start, end) pair", tool_id=_SEARCH.id)
        args["timeRangeFilter"] = {
            "startTime": timestamp(time_range[0], _SEARCH.id),
            "endTime": timestamp(time_range[1], _SEARCH.id),
        }
    if exclude_domains is not None:
        if isinstance(exclude_domains, str):
            raise ProviderToolError("exclude_domains must be a list of domains", tool_id=_SEARCH.id)
        args["excludeDomains"] = list(exclude_domains)
    if blocking_confidence is not None:
        args["blockingConfidence"] = blocking_confidence
    return _checked(_SEARCH, args)


def code_execution() -> ProviderTool:
    """The ``google.code_execution`` tool (it takes no arguments)."""
    return ProviderTool(id=_CODE.id, name=_CODE.name, args={})


def url_context() -> ProviderTool:
    """The ``google.url_context`` tool (it takes no arguments)."""
    return ProviderTool(id=_URL.id, name=_URL.name, args={})


def _checked(spec: ProviderToolSpec, args: dict[str, Any]) -> ProviderTool:
    try:
        spec.args_type.model_validate(args)
    except ValidationError as error:
        problems = validation_message(error, root="(arguments)")
        raise ProviderToolError(
            f"provider tool {spec.id!r}: invalid arguments: {problems}", tool_id=spec.id
        ) from None
    return ProviderTool(id=spec.id, name=spec.name, args=args)


def file_search(
    store_names: Sequence[str], *, metadata_filter: str | None = None, top_k: int | None = None
) -> ProviderTool:
    """The ``google.file_search`` tool over ``store_names`` (``fileSearchStores/...``; Gemini API only)."""
    if isinstance(store_names, str):
        raise ProviderToolError("store_names must be a list of store names", tool_id=_FILES.id)
    args: dict[str, Any] = {"fileSearchStoreNames": list(store_names)}
    if metadata_filter is not None:
        args["metadataFilter"] = metadata_filter
    if top_k is not None:
        args["topK"] = top_k
    return _checked(_FILES, args)


def google_maps(
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    language_code: str | None = None,
    enable_widget: bool | None = None,
) -> ProviderTool:
    """The ``google.google_maps`` tool; ``latitude``/``longitude`` (both or neither) locate the
    retrieval, sent in ``toolConfig.retrievalConfig``."""
    args: dict[str, Any] = {}
    if (latitude is None) != (longitude is None):
        raise ProviderToolError("give both latitude and longitude, or neither", tool_id=_MAPS.id)
    if latitude is not None:
        args["latLng"] = {"latitude": latitude, "longitude": longitude}
    if language_code is not None:
        args["languageCode"] = language_code
    if enable_widget is not None:
        args["enableWidget"] = enable_widget
    return _checked(_MAPS, args)


def enterprise_web_search(
    *, exclude_domains: Sequence[str] | None = None, blocking_confidence: BlockingConfidence | None = None
) -> ProviderTool:
    """The ``google.enterprise_web_search`` tool (Vertex AI only)."""
    args: dict[str, Any] = {}
    if exclude_domains is not None:
        if isinstance(exclude_domains, str):
            raise ProviderToolError("exclude_domains must be a list of domains", tool_id=_ENTERPRISE.id)
        args["excludeDomains"] = list(exclude_domains)
    if blocking_confidence is not None:
        args["blockingConfidence"] = blocking_confidence
    return _checked(_ENTERPRISE, args)


def resolve_builtin_tools(names: Iterable[object]) -> list[ProviderTool]:
    """Resolve untrusted tool names (``["google_search"]``) through the registered allow-list (T3)."""
    return resolve_tool_names(names, namespace="google")
